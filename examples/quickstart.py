"""Quick start: LeNet5 on handwritten digits, as in MindSpore's beginner tutorial.

The data are the UCI handwritten digits shipped in ``examples/data/digits`` as MNIST IDX files
(no download). The script reads them with ``MnistDataset``, trains LeNet5 with ``Model.train``
(LossMonitor + ModelCheckpoint), evaluates, and reloads the last checkpoint into a fresh network.

    python examples/quickstart.py [--epochs 10] [--mode pynative|graph] [--ckpt-dir DIR]
"""
import argparse
import os
import tempfile

import mindspore as ms
import mindspore.dataset as ds
from mindspore import nn
from mindspore.dataset import transforms, vision
from mindspore.train import Accuracy, CheckpointConfig, LossMonitor, Model, ModelCheckpoint

DATA_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "digits")


def create_dataset(usage, batch_size=32, shuffle=True):
    data = ds.MnistDataset(DATA_DIR, usage=usage, shuffle=shuffle)
    image_ops = [vision.Resize((32, 32)), vision.Rescale(1.0 / 255.0, 0.0),
                 vision.Normalize(mean=(0.1307,), std=(0.3081,)), vision.HWC2CHW()]
    data = data.map(image_ops, "image")
    data = data.map(transforms.TypeCast(ms.int32), "label")
    return data.batch(batch_size, drop_remainder=usage == "train")


class LeNet5(nn.Cell):
    def __init__(self, num_class=10, num_channel=1):
        super().__init__()
        self.conv1 = nn.Conv2d(num_channel, 6, 5, pad_mode="valid")
        self.conv2 = nn.Conv2d(6, 16, 5, pad_mode="valid")
        self.fc1 = nn.Dense(16 * 5 * 5, 120)
        self.fc2 = nn.Dense(120, 84)
        self.fc3 = nn.Dense(84, num_class)
        self.relu = nn.ReLU()
        self.max_pool2d = nn.MaxPool2d(kernel_size=2, stride=2)
        self.flatten = nn.Flatten()

    def construct(self, x):
        x = self.max_pool2d(self.relu(self.conv1(x)))
        x = self.max_pool2d(self.relu(self.conv2(x)))
        x = self.flatten(x)
        x = self.relu(self.fc1(x))
        x = self.relu(self.fc2(x))
        return self.fc3(x)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epochs", type=int, default=10)
    parser.add_argument("--mode", choices=("pynative", "graph"), default="pynative")
    parser.add_argument("--ckpt-dir", default=None, help="where checkpoints go (default: a temporary folder)")
    parser.add_argument("--device-target", default="CPU",
                        help="CPU, GPU, ... (default: CPU; 'auto' for the best installed backend)")
    args = parser.parse_args()

    ms.set_context(mode=ms.GRAPH_MODE if args.mode == "graph" else ms.PYNATIVE_MODE)
    if args.device_target != "auto":
        ms.set_device(args.device_target)
    print(f"device target: {ms.get_context('device_target')}, mode: {args.mode}")
    ms.set_seed(1)
    ds.config.set_seed(1)

    train_data = create_dataset("train")
    test_data = create_dataset("test", shuffle=False)
    print(f"train: {train_data.get_dataset_size()} batches, test: {test_data.get_dataset_size()} batches")

    net = LeNet5()
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    opt = nn.Momentum(net.trainable_params(), learning_rate=0.01, momentum=0.9)
    model = Model(net, loss, opt, metrics={"accuracy": Accuracy()})

    ckpt_dir = args.ckpt_dir or tempfile.mkdtemp(prefix="lenet_ckpt_")
    config = CheckpointConfig(save_checkpoint_steps=train_data.get_dataset_size(), keep_checkpoint_max=2)
    ckpt = ModelCheckpoint(prefix="lenet", directory=ckpt_dir, config=config)
    model.train(args.epochs, train_data, callbacks=[LossMonitor(per_print_times=20), ckpt])

    metrics = model.eval(test_data)
    print(f"test accuracy: {metrics['accuracy']:.4f}")

    saved = sorted(f for f in os.listdir(ckpt_dir) if f.endswith(".ckpt"))
    print(f"checkpoints in {ckpt_dir}: {saved}")
    fresh = LeNet5()
    not_loaded, _ = ms.load_param_into_net(fresh, ms.load_checkpoint(ckpt.latest_ckpt_file_name))
    reloaded = Model(fresh, loss, metrics={"accuracy": Accuracy()}).eval(test_data)
    print(f"reloaded checkpoint accuracy: {reloaded['accuracy']:.4f} (parameters not loaded: {not_loaded})")


if __name__ == "__main__":
    main()
