"""Page layout and index writing of one MindRecord shard (see :mod:`._format` for the layout).

The layout rules are MindSpore's, so that its reader accepts our files: rows are appended to the
last blob page while it has room, otherwise a new blob page (= a new row group) starts; a row
group's raw records stay contiguous, so when the raw records of the row group being continued no
longer fit in the last raw page, that row group is moved to a fresh raw page first.

Data are written with ``os.pwrite`` at their page offsets into a temporary file; the index rows go
to a temporary SQLite database as they are written. :meth:`ShardOutput.finish` writes the header,
and :meth:`ShardOutput.publish` renames both temporary files over the final names, so a crash or
an exception before ``commit`` never leaves a half-written MindRecord file behind.
"""
import os
import shutil
import sqlite3
import struct
import uuid

from mindspore.mindrecord._format import INDEX_SQL_TYPES, PAGE_BLOB, PAGE_RAW, read_header, serialize_header

_U64 = struct.Struct("<Q")
_BASE_COLUMNS = ("ROW_ID", "PAGE_ID_RAW", "PAGE_OFFSET_RAW", "PAGE_OFFSET_RAW_END", "ROW_GROUP_ID", "PAGE_ID_BLOB",
                 "PAGE_OFFSET_BLOB", "PAGE_OFFSET_BLOB_END")


def _temp_name(path):
    folder, base = os.path.split(os.path.abspath(path))
    _remove_stale_temporaries(folder, base)
    return os.path.join(folder, f".{base}.{os.getpid()}.{uuid.uuid4().hex[:8]}.tmp")


def _remove_stale_temporaries(folder, base):
    """Remove ``.<base>.<pid>.<hex>.tmp`` files a writer killed mid-write left (their process no longer runs)."""
    prefix = f".{base}."
    try:
        names = os.listdir(folder)
    except OSError:
        return
    for name in names:
        if not (name.startswith(prefix) and name.endswith(".tmp")):
            continue
        pid = name[len(prefix):-len(".tmp")].split(".", 1)[0]
        if not pid.isdigit():
            continue
        try:
            os.kill(int(pid), 0)
            continue                      # still running (a concurrent writer): not ours to remove
        except ProcessLookupError:
            pass
        except OSError:
            continue                      # another user's process, or unknown: keep it
        try:
            os.remove(os.path.join(folder, name))
        except OSError:
            pass


class ShardOutput:
    """One shard being written: its pages, its temporary data file and its temporary index database."""

    def __init__(self, path, shard_id, schema, index_fields, header_size, page_size, append=False):
        self.path = path
        self.shard_id = shard_id
        self.schema = schema
        self.index_fields = list(index_fields)
        self.header_size = header_size
        self.page_size = page_size
        self.append = append
        self.pages = []
        self.rows = 0
        if append:
            # Appending rewrites the file in place: new bytes only go past the old pages' used sizes and
            # the old header stays valid until the new one is written at commit.
            self.tmp_path = path
            header = read_header(path)
            self.pages = [self._page_from_record(r) for r in header["page"] or []]
            self.rows = sum(p["end_row_id"] - p["start_row_id"] for p in self.pages if p["page_type"] == PAGE_BLOB)
            self.fd = os.open(path, os.O_RDWR | getattr(os, "O_BINARY", 0))
        else:
            self.tmp_path = _temp_name(path)
            self.fd = os.open(self.tmp_path, os.O_RDWR | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o600)
        self.db_tmp = _temp_name(path + ".db")
        if append and os.path.exists(path + ".db"):
            shutil.copyfile(path + ".db", self.db_tmp)
            self.db = sqlite3.connect(self.db_tmp)
        else:
            self.db = sqlite3.connect(self.db_tmp)
            self._create_tables()
        names = list(_BASE_COLUMNS)
        for k, field in enumerate(self.index_fields):
            names += [f"INC_{k}", f"{field}_0"]
        self.insert_sql = f"INSERT INTO INDEXES ({', '.join(names)}) VALUES ({', '.join('?' * len(names))})"

    @staticmethod
    def _page_from_record(rec):
        groups = [(int(g["id"]), int(g["offset"])) for g in rec["row_group_ids"]]
        return {"page_id": int(rec["page_id"]), "shard_id": int(rec["shard_id"]), "page_type": rec["page_type"],
                "page_type_id": int(rec["page_type_id"]), "start_row_id": int(rec["start_row_id"]),
                "end_row_id": int(rec["end_row_id"]), "row_group_ids": groups, "page_size": int(rec["page_size"])}

    def _create_tables(self):
        columns = ["ROW_ID               INT  NOT NULL", "PAGE_ID_RAW          INT  NOT NULL",
                   "PAGE_OFFSET_RAW      INT  NOT NULL", "PAGE_OFFSET_RAW_END  INT  NOT NULL",
                   "ROW_GROUP_ID         INT  NOT NULL", "PAGE_ID_BLOB         INT  NOT NULL",
                   "PAGE_OFFSET_BLOB     INT  NOT NULL", "PAGE_OFFSET_BLOB_END INT  NOT NULL"]
        sql = "CREATE TABLE INDEXES(  " + ", ".join(columns)
        keys = ["ROW_ID"]
        for k, field in enumerate(self.index_fields):
            sql += f",INC_{k} INT, {field}_0 {INDEX_SQL_TYPES[self.schema[field]['type']]}"
            keys.append(f"INC_{k}")
        sql += f", PRIMARY KEY({','.join(keys)}));"
        self.db.execute(sql)
        self.db.execute("CREATE TABLE SHARD_NAME(NAME TEXT NOT NULL);")
        self.db.execute("INSERT INTO SHARD_NAME (NAME) VALUES (?)", (os.path.basename(self.path),))

    # -- layout ---------------------------------------------------------------------------------------------

    def _last(self, kind):
        for page in reversed(self.pages):
            if page["page_type"] == kind:
                return page
        return None

    def _new_page(self, kind, type_id, start_row, groups, size):
        page = {"page_id": len(self.pages), "shard_id": self.shard_id, "page_type": kind, "page_type_id": type_id,
                "start_row_id": start_row, "end_row_id": start_row if kind == PAGE_BLOB else 0,
                "row_group_ids": groups, "page_size": size}
        self.pages.append(page)
        return page

    def _at(self, page, offset):
        return self.header_size + page["page_id"] * self.page_size + offset

    def _cut_groups(self, blob_sizes, raw_sizes, last_blob, last_raw):
        n_blob = last_blob["page_size"] if last_blob else 0
        n_raw = last_raw["page_size"] - self._last_group_offset(last_raw) if last_raw else 0
        groups, start = [], 0
        for i, (b, r) in enumerate(zip(blob_sizes, raw_sizes)):
            if n_blob == 0 or n_blob + b > self.page_size or n_raw + r > self.page_size:
                groups.append((start, i))
                start, n_blob, n_raw = i, b, r
            else:
                n_blob += b
                n_raw += r
        groups.append((start, len(blob_sizes)))
        return groups

    @staticmethod
    def _last_group_offset(raw_page):
        return raw_page["row_group_ids"][-1][1] if raw_page["row_group_ids"] else 0

    def write(self, raw_records, blob_records, index_values):
        """Append rows (serialised raw and blob payloads, index values) to this shard."""
        if not raw_records:
            return
        blob_chunks = [_U64.pack(len(b)) + b for b in blob_records]
        raw_chunks = [_U64.pack(len(r)) + r for r in raw_records]
        blob_sizes = [len(c) for c in blob_chunks]
        raw_sizes = [len(c) for c in raw_chunks]
        last_blob, last_raw = self._last(PAGE_BLOB), self._last(PAGE_RAW)
        groups = self._cut_groups(blob_sizes, raw_sizes, last_blob, last_raw)
        placed = []  # per group: (blob page, first offset in it)
        start0, end0 = groups[0]
        if end0 > start0:
            placed.append((last_blob, last_blob["page_size"]))
            self._write_blobs(last_blob, blob_chunks[start0:end0])
        else:
            placed.append(None)
        for start, end in groups[1:]:
            prev = self._last(PAGE_BLOB)
            type_id = prev["page_type_id"] + 1 if prev else 0
            first_row = prev["end_row_id"] if prev else 0
            page = self._new_page(PAGE_BLOB, type_id, first_row, [], 0)
            placed.append((page, 0))
            self._write_blobs(page, blob_chunks[start:end])
        rows = []
        for g, (start, end) in enumerate(groups):
            if end == start:
                continue
            raw_page, raw_offset = self._place_raw(g, sum(raw_sizes[start:end]), placed[g][0])
            os.pwrite(self.fd, b"".join(raw_chunks[start:end]), self._at(raw_page, raw_offset))
            blob_page, blob_offset = placed[g]
            for i in range(start, end):
                row = [self.rows, raw_page["page_id"], raw_offset, raw_offset + raw_sizes[i],
                       blob_page["page_type_id"], blob_page["page_id"], blob_offset, blob_offset + blob_sizes[i]]
                for value in index_values[i]:
                    row += [0, value]
                rows.append(row)
                raw_offset += raw_sizes[i]
                blob_offset += blob_sizes[i]
                self.rows += 1
        self.db.executemany(self.insert_sql, rows)

    def _write_blobs(self, page, chunks):
        data = b"".join(chunks)
        os.pwrite(self.fd, data, self._at(page, page["page_size"]))
        page["page_size"] += len(data)
        page["end_row_id"] += len(chunks)

    def _place_raw(self, g, size, blob_page):
        """The raw page and offset where ``size`` bytes of raw records of group ``g`` go."""
        last_raw = self._last(PAGE_RAW)
        group_id = blob_page["page_type_id"]
        if g == 0:
            # continue the last row group, moving it to a fresh raw page if it no longer fits
            if last_raw["page_size"] + size > self.page_size:
                last_raw = self._shift_last_group(last_raw)
        else:
            if last_raw is None or last_raw["page_size"] + size > self.page_size:
                type_id = last_raw["page_id"] + 1 if last_raw else 0
                last_raw = self._new_page(PAGE_RAW, type_id, 0, [], 0)
            last_raw["row_group_ids"].append((group_id, last_raw["page_size"]))
        offset = last_raw["page_size"]
        last_raw["page_size"] += size
        return last_raw, offset

    def _shift_last_group(self, raw_page):
        group_id, offset = raw_page["row_group_ids"][-1]
        moved = raw_page["page_size"] - offset
        data = os.pread(self.fd, moved, self._at(raw_page, offset))
        new_page = self._new_page(PAGE_RAW, raw_page["page_id"] + 1, 0, [(group_id, 0)], moved)
        os.pwrite(self.fd, data, self._at(new_page, 0))
        raw_page["row_group_ids"].pop()
        raw_page["page_size"] = offset
        self.db.execute("UPDATE INDEXES SET PAGE_ID_RAW = ?, PAGE_OFFSET_RAW = PAGE_OFFSET_RAW - ?, "
                        "PAGE_OFFSET_RAW_END = PAGE_OFFSET_RAW_END - ? WHERE ROW_GROUP_ID = ?",
                        (new_page["page_id"], offset, offset, group_id))
        return new_page

    # -- commit ---------------------------------------------------------------------------------------------

    def finish(self, *, index_fields, compression_size, desc, blob_fields, addresses):
        """Write the header and the index; the files stay under their temporary names."""
        header = serialize_header(header_size=self.header_size, page_size=self.page_size, index_fields=index_fields,
                                  pages=self.pages, compression_size=compression_size, schema=self.schema,
                                  desc=desc, blob_fields=blob_fields, addresses=addresses, shard_id=self.shard_id)
        if len(header) + 8 > self.header_size:
            raise OverflowError(f"the header of '{self.path}' needs {len(header) + 8} bytes, more than the header "
                                f"size {self.header_size}; call set_header_size with a larger value")
        old_len = 0
        if self.append:
            old_len = _U64.unpack(os.pread(self.fd, 8, 0))[0]
        os.pwrite(self.fd, _U64.pack(len(header)) + header + bytes(max(0, old_len - len(header))), 0)
        end = max([self._at(p, p["page_size"]) for p in self.pages] + [8 + len(header)])
        if os.fstat(self.fd).st_size < end:
            os.ftruncate(self.fd, end)
        os.fsync(self.fd)
        self.db.commit()

    def publish(self):
        """Move the finished files to their final names."""
        self.close()
        if not self.append:
            os.replace(self.tmp_path, self.path)
        os.replace(self.db_tmp, self.path + ".db")

    def close(self):
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None
        if self.db is not None:
            self.db.close()
            self.db = None

    def discard(self):
        """Drop the temporary files (an append leaves the original file's old header in force)."""
        self.close()
        paths = [self.db_tmp] if self.append else [self.tmp_path, self.db_tmp]
        for p in paths:
            try:
                os.remove(p)
            except OSError:
                pass
