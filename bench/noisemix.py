#!/usr/bin/env python3
"""bench/noisemix.py — pads every text file of a simulated bundle with a content mix.

    python3 bench/noisemix.py DIR MIX TOTAL_BYTES [SEED]

The simulator writes the lines Rankscope must understand (NCCL, ProcessGroupNCCL, torchrun,
the hang's tail); real runs bury them in what the training script prints. This fills each
rank's file up to its share of TOTAL_BYTES with MIX, inserted between whole lines of the
first 80 % of the file (the hang's tail stays last):

  training   tqdm bars redrawn with \\r, HF-Trainer metric dicts, Python logging lines,
             UserWarning/FutureWarning pairs (the kind of file `--noise high` leaves short of)
  traceback  handled exceptions logged in a retry loop (logging.exception: a traceback per
             retry) and periodic faulthandler / py-spy style all-thread stack dumps

No line carries a time of its own, so the simulator's clock is what the parsers infer from.
Files whose name does not look like a rank's log (launcher logs, dmesg) are left alone.
Same arguments, same bytes.
"""
import os
import random
import re
import sys

SITE = "/opt/conda/lib/python3.11/site-packages"


def training_block(rng, step):
    loss = 2.5 / (1 + step / 400) + rng.random() * 0.05
    out = []
    # tqdm redraws the bar many times between newlines; each redraw starts with \r.
    bar = []
    for k in range(rng.randint(4, 12)):
        s = step * 10 + k
        pct = min(100, s * 100 // 20000)
        fill = "█" * (pct // 10) + "▏" + " " * (9 - pct // 10)
        bar.append(
            f"\r  {pct:3d}%|{fill}| {s}/20000 [{s // 240:02d}:{s // 4 % 60:02d}<"
            f"{(20000 - s) // 240:02d}:{(20000 - s) // 4 % 60:02d},  {3.9 + rng.random() * 0.2:.2f}it/s"
            f", loss={loss:.4f}]"
        )
    out.append("".join(bar) + "\n")
    out.append(
        f"{{'loss': {loss:.4f}, 'grad_norm': {0.5 + rng.random():.6f}, "
        f"'learning_rate': {3e-5 * (1 - step / 50000):.6e}, 'epoch': {step / 5000:.4f}}}\n"
    )
    out.append(
        f"INFO:__main__:step {step} | tokens/s {41000 + rng.randint(-900, 900)} | "
        f"mem {38.2 + rng.random():.2f} GiB | lr {3e-5:.2e}\n"
    )
    if rng.random() < 0.3:
        out.append(
            f"{SITE}/torch/utils/checkpoint.py:464: UserWarning: torch.utils.checkpoint: the "
            "use_reentrant parameter should be passed explicitly. In version 2.4 we will raise "
            "an exception if use_reentrant is not passed. use_reentrant=False is recommended, "
            "but if you need to preserve the current default behavior, you can pass "
            "use_reentrant=True. Refer to docs for more details on the differences between the "
            "two variants.\n  return fn(*args, **kwargs)\n"
        )
    if rng.random() < 0.1:
        out.append(
            f"{SITE}/transformers/trainer.py:2890: FutureWarning: `torch.cuda.amp.autocast(args...)`"
            " is deprecated. Please use `torch.amp.autocast('cuda', args...)` instead.\n"
            "  with torch.cuda.amp.autocast(enabled=True):\n"
        )
    return "".join(out)


FRAMES = [
    ("/workspace/train.py", 412, "main", "trainer.train()"),
    (f"{SITE}/transformers/trainer.py", 1938, "train", "return inner_training_loop("),
    (f"{SITE}/transformers/trainer.py", 2236, "_inner_training_loop",
     "for step, inputs in enumerate(epoch_iterator):"),
    (f"{SITE}/accelerate/data_loader.py", 454, "__iter__", "current_batch = next(dataloader_iter)"),
    (f"{SITE}/torch/utils/data/dataloader.py", 631, "__next__", "data = self._next_data()"),
    (f"{SITE}/torch/utils/data/dataloader.py", 1346, "_next_data",
     "return self._process_data(data)"),
    (f"{SITE}/torch/utils/data/dataloader.py", 1372, "_process_data", "data.reraise()"),
    (f"{SITE}/torch/_utils.py", 705, "reraise", "raise exception"),
]


def traceback_block(rng, step):
    out = []
    if rng.random() < 0.7:
        out.append(f"WARNING:root:fetching shard {step % 997} failed, retrying (attempt {step % 5 + 1}/5)\n")
        out.append("Traceback (most recent call last):\n")
        for f, ln, fn, code in FRAMES[: rng.randint(4, len(FRAMES))]:
            out.append(f'  File "{f}", line {ln}, in {fn}\n    {code}\n')
        out.append(
            f"urllib3.exceptions.ReadTimeoutError: HTTPSConnectionPool(host='s3.internal', "
            f"port=443): Read timed out. (read timeout={30 + step % 7})\n"
        )
    else:
        # faulthandler.dump_traceback_later(repeat=True): every thread, newest frame first.
        for t in range(rng.randint(2, 5)):
            out.append(
                f"Thread 0x{0x7f3a5c000000 + t * 0x1000000 + (step % 4096) * 0x1000:016x} "
                f"({'most recent call first' if t else 'most recent call first'}):\n"
            )
            for f, ln, fn, _ in reversed(FRAMES[: rng.randint(3, len(FRAMES))]):
                out.append(f'  File "{f}", line {ln} in {fn}\n')
            out.append("\n")
    return "".join(out)


RANK_FILE = re.compile(r"(rank|stdout|stderr|\.log$|\.out$)")


def pad_file(path, mix, target, rng):
    with open(path, "rb") as fh:
        data = fh.read()
    if len(data) >= target:
        return len(data)
    lines = data.splitlines(keepends=True)
    cut = max(1, int(len(lines) * 0.8))
    head, tail = lines[:cut], lines[cut:]
    need = target - len(data)
    blocks = []
    made = 0
    step = rng.randint(0, 1000)
    make = training_block if mix == "training" else traceback_block
    while made < need:
        b = make(rng, step).encode()
        step += 1
        blocks.append(b)
        made += len(b)
    # Spread the blocks evenly between the head's lines.
    out = []
    per = max(1, len(blocks) // max(1, len(head)))
    bi = 0
    for i, ln in enumerate(head):
        out.append(ln)
        if not ln.endswith(b"\n"):
            continue
        take = per if i < len(head) - 1 else len(blocks) - bi
        out.extend(blocks[bi : bi + take])
        bi += take
    out.extend(blocks[bi:])
    out.extend(tail)
    with open(path, "wb") as fh:
        fh.write(b"".join(out))
    return target


def main():
    if len(sys.argv) < 4:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    root, mix, total = sys.argv[1], sys.argv[2], int(sys.argv[3])
    seed = int(sys.argv[4]) if len(sys.argv) > 4 else 1
    if mix not in ("training", "traceback"):
        sys.exit("MIX is training or traceback")
    files = []
    for d, _, names in os.walk(root):
        for n in names:
            p = os.path.join(d, n)
            rel = os.path.relpath(p, root)
            if n == "expected.json" or "dmesg" in rel or "agent" in n or n.startswith("torchrun-"):
                continue
            if RANK_FILE.search(n):
                files.append(p)
    files.sort()
    have = sum(os.path.getsize(p) for p in files)
    share = max(0, total - have) // max(1, len(files))
    rng = random.Random(seed)
    for p in files:
        pad_file(p, mix, os.path.getsize(p) + share, rng)


if __name__ == "__main__":
    main()
