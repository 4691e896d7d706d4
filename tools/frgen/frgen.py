#!/usr/bin/env python3
"""Writes PyTorch Flight Recorder dumps for Rankscope's tests ([formats 2]).

Regenerate the checked-in fixtures with:

    python3 tools/frgen/frgen.py tests/data/fr

Standard library only. Nothing here ever *loads* a hostile pickle: the hostile files are
produced with pickle.dumps (which only calls __reduce__ to learn what to write) or by hand.

What it writes (all deterministic):
  job4/nccl_trace_rank_{0..3}   a 4-rank job, schema 2.10, written the way torch::jit::Pickler
                                writes it (protocol 2, memoized strings, BININT1/2, LONG1
                                8-byte times, TUPLE2, shared frame dicts via BINGET); rank 3
                                never enqueued all_reduce #3 (the hang), rank 0 started it
  versions/fr_v{V}_p{P}.pkl     rank 1 of the same job in every schema version V (2.3, 2.4,
                                2.5, 2.7, 2.10) and pickle protocol P (2..5), Python's pickle
  versions/fr_v2.10_p0.pkl      protocol 0 (text opcodes), p1 too
  versions/fr_minimal.pkl       2.3 without pg_status, frames, durations (optional keys)
  wrapped/nccl_trace_rank_2     ring buffer wrapped: first record_id is 3, not 0
  json/nccl_trace_rank_0.json   the control-plane JSON variant (strings in pg_config/status,
                                time_discovered_* 0, no frames)
  json/no_entries.json          JSON variant with "entries" omitted (nothing recorded)
  hostile/*.pkl                 GLOBAL os.system (protocol 2), STACK_GLOBAL (protocol 4),
                                a REDUCE payload inside the 5th entry of a real dump,
                                tuples nested 100000 deep, lists nested 1000 deep, 1000
                                MARKs, BINUNICODE declaring 4 GiB, BINUNICODE8 declaring 2^62,
                                LONG4 declaring 2 GiB, a memo slot 2^32-16, garbage after PROTO
  truncated/cut_{N}.pkl         job4 rank 0 cut at several offsets (N = bytes kept)
  repeat/nccl_trace_rank_0      40 entries alternating two calls from two call sites: the
                                reader keeps 2 calls and 2 stacks, not 40
  scenarios/<case>/nccl_trace_rank_R   FR-only bundles where the dumps alone decide (4 ranks,
                                world PG): op_mismatch (rank 2 broadcasts at #6 while the
                                others all_reduce), stuck_inside (rank 1 started #6 and never
                                finished it, the others completed it), no_dump (rank 2 wrote
                                no dump, the others wait in #6: it died), p2p_unmatched (rank 0's
                                send to rank 1 was never received), not_started (rank 2 only
                                enqueued #6, its peers started it), extra_collective (rank 0
                                alone issued #6); stuck_inside_p0 / _p1 the same
                                in pickle protocols 0 and 1
  collateral/<case>/nccl_trace_rank_3   stuck_inside's collateral rank 3 with a broken dump:
                                entries [] / None / a dict / left out, negative
                                collective_seq_ids, the file cut at 40%
"""

import io
import json
import os
import pickle
import random
import struct
import sys

T0 = 1724779239936775119  # time_created_ns of the tutorial example
WORLD = 4
TIMEOUT_MS = 600000

FRAMES = {
    "all_reduce": {"name": "all_reduce", "filename": "torch/distributed/distributed_c10d.py", "line": 2696},
    "broadcast": {"name": "broadcast", "filename": "torch/distributed/distributed_c10d.py", "line": 2380},
    "all_gather_into_tensor": {"name": "all_gather_into_tensor",
                               "filename": "torch/distributed/distributed_c10d.py", "line": 3512},
    "send": {"name": "send", "filename": "torch/distributed/distributed_c10d.py", "line": 1990},
    "recv": {"name": "recv", "filename": "torch/distributed/distributed_c10d.py", "line": 2040},
    "wrapper": {"name": "wrapper", "filename": "torch/distributed/c10d_logger.py", "line": 83},
    "train_step": {"name": "train_step", "filename": "/home/user/train.py", "line": 120},
    "pipeline": {"name": "pipeline_step", "filename": "/home/user/train.py", "line": 151},
    "eval_step": {"name": "eval_step", "filename": "/home/user/train.py", "line": 177},
    "main": {"name": "main", "filename": "/home/user/train.py", "line": 200},
}


def tp_group(rank):
    """TP subgroups {0,1} (pg "1") and {2,3} (pg "2")."""
    return ("1", "tp_group") if rank < 2 else ("2", "tp_group")


def make_entries(rank, version):
    """The ops of one rank, oldest first. Returns a list of entry dicts."""
    entries = []
    seq = {"0": 0, "1": 0, "2": 0}
    p2p = {"0": 0}
    op_id = {"0": 0, "1": 0, "2": 0}

    def add(pg, kind, in_sizes, out_sizes, dtype, state, frames, p2p_op=False, t=0):
        pg_name, pg_desc = pg
        pg_id = int(pg_name)
        if p2p_op:
            p2p[pg_name] += 1
        else:
            seq[pg_name] += 1
        op_id[pg_name] += 1
        created = T0 + 1_000_000 * len(entries) + 1000 * rank + t
        started = created + 20_000 if state in ("started", "completed") else None
        completed = created + 350_000 if state == "completed" else None
        e = {}
        if frames is not None:
            e["frames"] = [FRAMES[f] for f in frames]
        e["record_id"] = len(entries)
        e["pg_id"] = pg_id
        e["process_group"] = (pg_name, pg_desc)
        if version == "2.10":
            e["thread_name"] = "pt_main_thread"
            e["thread_id"] = "140234231514944"
        e["collective_seq_id"] = seq[pg_name]
        e["p2p_seq_id"] = p2p.get(pg_name, 0)
        e["op_id"] = op_id[pg_name]
        e["profiling_name"] = kind
        e["time_created_ns"] = created
        if state == "completed":
            e["duration_ms"] = 0.35 + 0.01 * len(entries)
        e["input_sizes"] = in_sizes
        e["input_dtypes"] = [dtype] * len(in_sizes)
        e["output_sizes"] = out_sizes
        e["output_dtypes"] = [dtype] * len(out_sizes)
        e["state"] = state
        e["time_discovered_started_ns"] = started
        e["time_discovered_completed_ns"] = completed
        e["retired"] = state == "completed"
        e["timeout_ms"] = TIMEOUT_MS
        e["is_p2p"] = p2p_op
        entries.append(e)

    world = ("0", "default_pg")
    base = ["wrapper", "train_step", "main"]
    add(world, "nccl:all_reduce", [[3, 4]], [[3, 4]], "Float", "completed", ["all_reduce"] + base)
    add(world, "nccl:broadcast", [[1024]], [[1024]], "Float", "completed", ["broadcast"] + base)
    add(tp_group(rank), "nccl:_allgather_base", [[512]], [[1024]], "BFloat16", "completed",
        ["all_gather_into_tensor"] + base)
    # Pipeline p2p on the world PG: 0 -> 1 and 2 -> 3 (PG-local ranks = global ranks here).
    if rank % 2 == 0:
        add(world, "nccl:send %d->%d" % (rank, rank + 1), [[64, 128]], [[64, 128]], "Half",
            "completed", ["send", "wrapper", "pipeline", "main"], p2p_op=True)
    else:
        add(world, "nccl:recv %d<-%d" % (rank, rank - 1), [[64, 128]], [[64, 128]], "Half",
            "completed", ["recv", "wrapper", "pipeline", "main"], p2p_op=True)
    add(world, "nccl:all_reduce", [[4096, 1024], [1024]], [[4096, 1024], [1024]], "Float",
        "completed", ["all_reduce"] + base)
    # The hang: all_reduce #4 of the world PG. Rank 0 started it (timing enabled), ranks 1
    # and 2 have it scheduled, rank 3 took another code path (eval) and never enqueued it.
    if rank == 3:
        add(tp_group(rank), "nccl:all_reduce", [[8]], [[8]], "Float", "scheduled",
            ["all_reduce", "wrapper", "eval_step", "main"])
    else:
        add(world, "nccl:all_reduce", [[4096, 4096]], [[4096, 4096]], "Float",
            "started" if rank == 0 else "scheduled", ["all_reduce"] + base)
    return entries


def pg_status(entries):
    status = {}
    for e in entries:
        pg = str(e["pg_id"])
        s = status.setdefault(pg, {"last_enqueued_collective": -1, "last_started_collective": -1,
                                   "last_completed_collective": -1})
        if e["is_p2p"]:
            continue
        s["last_enqueued_collective"] = e["collective_seq_id"]
        if e["state"] in ("started", "completed"):
            s["last_started_collective"] = e["collective_seq_id"]
        if e["state"] == "completed":
            s["last_completed_collective"] = e["collective_seq_id"]
    return status


def pg_config(rank):
    tp_name, tp_desc = tp_group(rank)
    tp_ranks = "[0, 1]" if rank < 2 else "[2, 3]"
    return {
        "0": {"name": "0", "desc": "default_pg", "ranks": "[0, 1, 2, 3]"},
        tp_name: {"name": tp_name, "desc": tp_desc, "ranks": tp_ranks},
    }


def make_dump(rank, version, with_frames=True):
    entries = make_entries(rank, version)
    if not with_frames:
        for e in entries:
            e.pop("frames", None)
    d = {"version": version}
    if version == "2.7":
        d["nccl_version"] = "2.21.5"
    d["pg_config"] = pg_config(rank)
    if version == "2.10":
        d["comm_lib_version"] = "2.26.2"
    d["pg_status"] = pg_status(entries)
    d["entries"] = entries
    return d


# ---------------------------------------------------------------------------------------
# A writer that emits what torch::jit::Pickler emits (torch/csrc/jit/serialization/
# pickler.cpp): PROTO 2; strings memoized by value (BINUNICODE + BINPUT, then BINGET);
# containers memoized by identity only when shared; pushInt picks BININT1 / BININT2 /
# BININT / LONG1(8); doubles as big-endian BINFLOAT; tuples of 1..3 as TUPLE1..3; lists as
# EMPTY_LIST MARK … APPENDS; dicts as EMPTY_DICT [MARK … SETITEMS].

class TorchStylePickler:
    def __init__(self, obj):
        self.out = io.BytesIO()
        self.memo_next = 0
        self.strings = {}
        self.shared = {}
        self.refcount = {}
        self._count(obj)

    def _count(self, obj):
        if isinstance(obj, (list, dict, tuple)):
            self.refcount[id(obj)] = self.refcount.get(id(obj), 0) + 1
            if self.refcount[id(obj)] > 1:
                return
            items = obj.items() if isinstance(obj, dict) else enumerate(obj)
            for k, v in items:
                if isinstance(obj, dict):
                    self._count(k)
                self._count(v)

    def w(self, b):
        self.out.write(b)

    def put(self):
        idx = self.memo_next
        self.memo_next += 1
        self.w(b"q" + struct.pack("<B", idx) if idx < 256 else b"r" + struct.pack("<I", idx))
        return idx

    def get(self, idx):
        self.w(b"h" + struct.pack("<B", idx) if idx < 256 else b"j" + struct.pack("<I", idx))

    def push(self, v):
        shared = isinstance(v, (list, dict, tuple)) and self.refcount.get(id(v), 0) > 1
        if shared and id(v) in self.shared:
            self.get(self.shared[id(v)])
            return
        self.push_impl(v)
        if shared:
            self.shared[id(v)] = self.put()

    def push_impl(self, v):
        if v is None:
            self.w(b"N")
        elif v is True:
            self.w(b"\x88")
        elif v is False:
            self.w(b"\x89")
        elif isinstance(v, int):
            if 0 <= v <= 0xFF:
                self.w(b"K" + struct.pack("<B", v))
            elif 0 <= v <= 0xFFFF:
                self.w(b"M" + struct.pack("<H", v))
            elif -(2 ** 31) <= v < 2 ** 31:
                self.w(b"J" + struct.pack("<i", v))
            else:
                self.w(b"\x8a\x08" + struct.pack("<q", v))
        elif isinstance(v, float):
            self.w(b"G" + struct.pack(">d", v))
        elif isinstance(v, str):
            if v in self.strings:
                self.get(self.strings[v])
            else:
                data = v.encode("utf-8")
                self.w(b"X" + struct.pack("<I", len(data)) + data)
                self.strings[v] = self.put()
        elif isinstance(v, tuple):
            if len(v) == 0:
                self.w(b")")
            elif len(v) <= 3:
                for item in v:
                    self.push(item)
                self.w(bytes([0x84 + len(v)]))
            else:
                self.w(b"(")
                for item in v:
                    self.push(item)
                self.w(b"t")
        elif isinstance(v, list):
            self.w(b"](")
            for item in v:
                self.push(item)
            self.w(b"e")
        elif isinstance(v, dict):
            self.w(b"}")
            if v:
                self.w(b"(")
                for k, item in v.items():
                    self.push(k)
                    self.push(item)
                self.w(b"u")
        else:
            raise TypeError(type(v))

    def dumps(self, obj):
        self.w(b"\x80\x02")
        self.push(obj)
        self.w(b".")
        return self.out.getvalue()


def torch_style_dumps(obj):
    data = TorchStylePickler(obj).dumps(obj)
    # Our own data, so loading it back to check the writer is safe.
    assert pickle.loads(data) == obj, "torch-style writer disagrees with pickle"
    return data


# ---------------------------------------------------------------------------------------
# JSON variant (FlightRecorderDetail.hpp dump_json): pg_config/pg_status values are strings,
# time_discovered_* are 0 instead of null, no frames, entries omitted when empty.

def json_dump(dump):
    j = {"version": dump["version"], "comm_lib_version": dump.get("comm_lib_version", ""),
         "pg_config": dump["pg_config"],
         "pg_status": {pg: {k: str(v) for k, v in s.items()} for pg, s in dump["pg_status"].items()}}
    entries = []
    for e in dump["entries"]:
        je = {k: v for k, v in e.items() if k != "frames"}
        je["process_group"] = list(e["process_group"])
        je["time_discovered_started_ns"] = e["time_discovered_started_ns"] or 0
        je["time_discovered_completed_ns"] = e["time_discovered_completed_ns"] or 0
        entries.append(je)
    if entries:
        j["entries"] = entries
    return json.dumps(j, sort_keys=True).encode()


# ---------------------------------------------------------------------------------------
# Hostile pickles

class Payload:
    """Unpickling this would run os.system: never load the bytes written from it."""

    def __reduce__(self):
        return (os.system, ("echo rankscope-was-pwned > /tmp/rankscope-pwned",))


def hostile(out):
    files = {}
    files["global_os_system.pkl"] = pickle.dumps(Payload(), protocol=2)
    files["stack_global.pkl"] = pickle.dumps(Payload(), protocol=4)
    dump = make_dump(1, "2.5")
    dump["entries"][4]["profiling_name"] = Payload()
    files["reduce_in_entry.pkl"] = pickle.dumps(dump, protocol=2)
    files["deep_tuples.pkl"] = b"\x80\x02)" + b"\x85" * 99999 + b"."
    files["deep_lists.pkl"] = b"\x80\x02" + b"]" * 1000 + b"a" * 999 + b"."
    files["deep_marks.pkl"] = b"\x80\x02" + b"(" * 1000 + b"N."
    files["huge_binunicode.pkl"] = b"\x80\x02X" + struct.pack("<I", 0xFFFFFFFF) + b"abc."
    files["huge_binunicode8.pkl"] = b"\x80\x04\x8d" + struct.pack("<Q", 1 << 62) + b"abc."
    files["huge_long4.pkl"] = b"\x80\x02\x8b" + struct.pack("<i", 0x7FFFFFFF) + b"\x01\x02."
    files["memo_far.pkl"] = b"\x80\x02N" + b"r" + struct.pack("<I", 0xFFFFFFF0) + b"."
    rng = random.Random(1234)
    files["garbage_after_proto.pkl"] = b"\x80\x02" + bytes(rng.randrange(256) for _ in range(512))
    for name, data in files.items():
        write(os.path.join(out, "hostile", name), data)


# ---------------------------------------------------------------------------------------
# FR-only scenarios: small 4-rank jobs on the world PG where the dumps alone decide.

STEP = ["wrapper", "train_step", "main"]


class Recorder:
    """One rank's buffer: appends entries with the counters PyTorch keeps per PG."""

    def __init__(self, rank, timing=True):
        self.rank = rank
        self.timing = timing
        self.entries = []
        self.seq = 0
        self.p2p = 0
        self.op = 0

    def add(self, name, sizes, state, frames, dtype="Float", p2p=False):
        if p2p:
            self.p2p += 1
        else:
            self.seq += 1
        self.op += 1
        created = T0 + 1_000_000 * len(self.entries) + 1000 * self.rank
        started = created + 20_000 if state in ("started", "completed") and self.timing else None
        completed = created + 350_000 if state == "completed" else None
        self.entries.append({
            "frames": [FRAMES[f] for f in frames],
            "record_id": len(self.entries), "pg_id": 0, "process_group": ("0", "default_pg"),
            "collective_seq_id": self.seq, "p2p_seq_id": self.p2p, "op_id": self.op,
            "profiling_name": name, "time_created_ns": created,
            "input_sizes": sizes, "input_dtypes": [dtype] * len(sizes),
            "output_sizes": sizes, "output_dtypes": [dtype] * len(sizes),
            "state": state, "time_discovered_started_ns": started,
            "time_discovered_completed_ns": completed, "retired": state == "completed",
            "timeout_ms": TIMEOUT_MS, "is_p2p": p2p})

    def warmup(self, n=5):
        for _ in range(n):
            self.add("nccl:all_reduce", [[1024]], "completed", ["all_reduce"] + STEP)

    def dump(self):
        return {"version": "2.10", "pg_config": {"0": {"name": "0", "desc": "default_pg",
                                                        "ranks": "[0, 1, 2, 3]"}},
                "pg_status": pg_status(self.entries), "entries": self.entries}


def stuck_inside():
    """Rank 1 started #6 and never finished it; its peers completed #6 and wait in #7."""
    ranks = [Recorder(r) for r in range(WORLD)]
    for r in ranks:
        r.warmup()
        r.add("nccl:all_reduce", [[1024]], "started" if r.rank == 1 else "completed",
              ["all_reduce"] + STEP)
        if r.rank != 1:
            r.add("nccl:all_reduce", [[1024]], "started", ["all_reduce"] + STEP)
    return ranks


def collateral(out):
    """stuck_inside with collateral rank 3's dump broken in one way per file; the test loads
    it beside scenarios/stuck_inside ranks 0-2. pg_status is kept as the rank wrote it."""
    good = stuck_inside()[3].dump()
    broken = {}
    for name, entries in (("entries_empty", []), ("entries_none", None),
                          ("entries_dict", {str(i): e for i, e in enumerate(good["entries"])}),
                          ("entries_missing", "omit")):
        d = dict(good)
        if entries == "omit":
            del d["entries"]
        else:
            d["entries"] = entries
        broken[name] = pickle.dumps(d, protocol=2)
    d = dict(good)
    d["entries"] = [dict(e, collective_seq_id=-e["collective_seq_id"]) for e in good["entries"]]
    broken["negative_seq"] = pickle.dumps(d, protocol=2)
    full = torch_style_dumps(good)
    broken["cut_short"] = full[:len(full) * 2 // 5]
    for name, data in broken.items():
        write(os.path.join(out, "collateral", name, "nccl_trace_rank_3"), data)
    # The whole scenario in the protocols without PROTO (Python 2's default, and 1).
    for protocol in (0, 1):
        for r in stuck_inside():
            write(os.path.join(out, "scenarios", "stuck_inside_p%d" % protocol,
                               "nccl_trace_rank_%d" % r.rank),
                  pickle.dumps(r.dump(), protocol=protocol))


def scenarios(out):
    cases = {}
    # Rank 2 took the eval path at #6 and broadcast while ranks 0, 1, 3 all_reduce.
    ranks = [Recorder(r) for r in range(WORLD)]
    for r in ranks:
        r.warmup()
        if r.rank == 2:
            r.add("nccl:broadcast", [[1024]], "started", ["broadcast", "wrapper", "eval_step", "main"])
        else:
            r.add("nccl:all_reduce", [[1024]], "started", ["all_reduce"] + STEP)
    cases["op_mismatch"] = ranks
    cases["stuck_inside"] = stuck_inside()
    # Rank 2 wrote no dump; ranks 0, 1, 3 wait in #6 (no timing: "scheduled").
    ranks = [Recorder(r, timing=False) for r in range(WORLD)]
    for r in ranks:
        r.warmup()
        r.add("nccl:all_reduce", [[1024]], "scheduled", ["all_reduce"] + STEP)
    cases["no_dump"] = [r for r in ranks if r.rank != 2]
    # Pipeline: rank 0's send to rank 1 is pending, rank 1 never posted the recv; ranks 2
    # and 3 exchanged theirs.
    ranks = [Recorder(r) for r in range(WORLD)]
    for r in ranks:
        r.warmup(3)
        if r.rank == 0:
            r.add("nccl:send 0->1", [[64, 128]], "started", ["send", "wrapper", "pipeline", "main"],
                  dtype="Half", p2p=True)
        elif r.rank == 2:
            r.add("nccl:send 2->3", [[64, 128]], "completed", ["send", "wrapper", "pipeline", "main"],
                  dtype="Half", p2p=True)
        elif r.rank == 3:
            r.add("nccl:recv 3<-2", [[64, 128]], "completed", ["recv", "wrapper", "pipeline", "main"],
                  dtype="Half", p2p=True)
    cases["p2p_unmatched"] = ranks
    # With timing on, ranks 0, 1, 3 started #6; rank 2 only enqueued it (its GPU never began).
    ranks = [Recorder(r) for r in range(WORLD)]
    for r in ranks:
        r.warmup()
        r.add("nccl:all_reduce", [[1024]], "scheduled" if r.rank == 2 else "started",
              ["all_reduce"] + STEP)
    cases["not_started"] = ranks
    # Rank 0 issued an extra all_reduce #6 (logging on rank 0 only); ranks 1-3 never did.
    ranks = [Recorder(r) for r in range(WORLD)]
    for r in ranks:
        r.warmup()
        if r.rank == 0:
            r.add("nccl:all_reduce", [[1]], "started", ["all_reduce", "wrapper", "eval_step", "main"])
    cases["extra_collective"] = ranks
    for name, recorders in cases.items():
        for r in recorders:
            write(os.path.join(out, "scenarios", name, "nccl_trace_rank_%d" % r.rank),
                  torch_style_dumps(r.dump()))

    # Two calls from two call sites, twenty times each: de-duplication in the reader.
    r = Recorder(0)
    for i in range(40):
        if i % 2:
            r.add("nccl:all_reduce", [[1024]], "completed", ["all_reduce"] + STEP)
        else:
            r.add("nccl:broadcast", [[8]], "completed", ["broadcast", "wrapper", "eval_step", "main"])
    write(os.path.join(out, "repeat", "nccl_trace_rank_0"), torch_style_dumps(r.dump()))


def write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


def main(out):
    # The job, as PyTorch writes it.
    job = {}
    for rank in range(WORLD):
        job[rank] = torch_style_dumps(make_dump(rank, "2.10"))
        write(os.path.join(out, "job4", "nccl_trace_rank_%d" % rank), job[rank])

    # Every schema version in every protocol (Python's own pickler).
    for version in ("2.3", "2.4", "2.5", "2.7", "2.10"):
        for protocol in (2, 3, 4, 5):
            data = pickle.dumps(make_dump(1, version), protocol=protocol)
            write(os.path.join(out, "versions", "fr_v%s_p%d.pkl" % (version, protocol)), data)
    for protocol in (0, 1):
        data = pickle.dumps(make_dump(1, "2.10"), protocol=protocol)
        write(os.path.join(out, "versions", "fr_v2.10_p%d.pkl" % protocol), data)
    minimal = make_dump(1, "2.3", with_frames=False)
    del minimal["pg_status"]
    for e in minimal["entries"]:
        e.pop("duration_ms", None)
        e.pop("is_p2p", None)
    write(os.path.join(out, "versions", "fr_minimal.pkl"), pickle.dumps(minimal, protocol=2))

    # Ring buffer of 3 entries on rank 2: the oldest three records were evicted.
    wrapped = make_dump(2, "2.10")
    wrapped["entries"] = wrapped["entries"][3:]
    write(os.path.join(out, "wrapped", "nccl_trace_rank_2"), torch_style_dumps(wrapped))

    write(os.path.join(out, "json", "nccl_trace_rank_0.json"), json_dump(make_dump(0, "2.10")))
    empty = make_dump(0, "2.10")
    empty["entries"] = []
    write(os.path.join(out, "json", "no_entries.json"), json_dump(empty))

    hostile(out)
    scenarios(out)
    collateral(out)

    full = job[0]
    for keep in (1, 2, 40, len(full) // 2, len(full) * 3 // 4, len(full) * 9 // 10, len(full) - 1):
        write(os.path.join(out, "truncated", "cut_%d.pkl" % keep), full[:keep])
    print("rank 0 torch-style dump: %d bytes" % len(full))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: frgen.py OUT_DIR   (the checked-in fixtures live in tests/data/fr)")
    main(sys.argv[1])
