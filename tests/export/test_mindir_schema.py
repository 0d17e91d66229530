"""The MindIR schema built in Python (``_schema.py``) is what protoc compiles from ``mind_ir.proto``, and it
covers every field real MindSpore 2.10 writes."""
import pathlib

import pytest

from google.protobuf import descriptor_pb2, unknown_fields

from mindspore._deploy.mindir import _schema

ROOT = pathlib.Path(__file__).resolve().parents[2]
# the schema's source in the repository (an installed wheel ships only the Python module)
PROTO_DIR = ROOT / "mindspore-core" / "src" / "mindspore" / "_deploy" / "mindir"
FIXTURES = ROOT / "tests" / "fixtures" / "export" / "mindspore-2.10"


def test_descriptor_matches_the_proto_file(tmp_path):
    protoc = pytest.importorskip("grpc_tools.protoc")
    out = tmp_path / "mind_ir.pb"
    rc = protoc.main(["protoc", f"-I{PROTO_DIR}", f"--descriptor_set_out={out}", str(PROTO_DIR / "mind_ir.proto")])
    assert rc == 0
    fds = descriptor_pb2.FileDescriptorSet.FromString(out.read_bytes())
    assert fds.file[0] == _schema.FILE_DESCRIPTOR_PROTO
    assert _schema.FILE_DESCRIPTOR_PROTO.package == "mind_ir"


def _unknown(msg, path="model"):
    """Paths of the messages under ``msg`` that hold fields the schema does not know."""
    found = [path] if len(unknown_fields.UnknownFieldSet(msg)) else []
    for field, value in msg.ListFields():
        if field.message_type is None:
            continue
        repeated = field.is_repeated if hasattr(field, "is_repeated") else field.label == field.LABEL_REPEATED
        if repeated:
            items = value.values() if field.message_type.GetOptions().map_entry else value
            for i, item in enumerate(items):
                if hasattr(item, "ListFields"):
                    found += _unknown(item, f"{path}.{field.name}[{i}]")
        else:
            found += _unknown(value, f"{path}.{field.name}")
    return found


@pytest.mark.parametrize("name", sorted(p.stem for p in FIXTURES.glob("*.mindir") if "_aes_" not in p.stem
                                        and "_sm4_" not in p.stem))
def test_mindspore_files_have_no_field_the_schema_lacks(name):
    model = _schema.ModelProto.FromString((FIXTURES / f"{name}.mindir").read_bytes())
    assert model.producer_name == "MindSpore" and model.mind_ir_version == 3
    assert _unknown(model) == []


def test_the_unknown_field_check_sees_one():
    model = _schema.ModelProto.FromString((FIXTURES / "small.mindir").read_bytes())
    node = model.graph.node[0]
    node.ParseFromString(node.SerializeToString() + b"\xf8\x07\x01")   # field 127, varint 1
    assert _unknown(model) == ["model.graph.node[0]"]
