#!/usr/bin/env python3
"""Builds the secrets-ingress bundle (issue 21, items 7 and 8) from the fr-logs-ib-pair-json
scenario: the same hang (ranks 3 and 4 stuck on an IB pair), with secrets planted in every
place a string enters the model and in every form the masker must know. The secrets are
made up for this test; SECRETS.txt lists each one that must never reach an output.

Run from this folder: python3 make_bundle.py
"""
import json
import os
import shutil

HERE = os.path.dirname(os.path.abspath(__file__))
SCENARIO = os.path.join(HERE, "..", "scenarios", "fr-logs-ib-pair-json")
JOB = "job-glpat-F0lderT0kenAbCdEfGhIj12"  # a folder named after a GitLab token

JWT = ("eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJzZWVkLWNvb2tpZS0yMSIsImlhdCI6MTcxMDAwMDAwMH0"
       ".Zk3mQ9vLr2TbX8wYc5NpA1sD7fG4hJ6kE0uI9oP2qRs")
SECRETS = {
    "folder": "glpat-F0lderT0kenAbCdEfGhIj12",
    "file": "AIzaSyF1leNameKeyAbCdEfGhIjKlMnOpQr1234",
    "error_json_jwt": JWT,
    "error_json_stripe": "sk_live_51Err0rJs0nStripeAbCdEf12",
    "error_json_mysql": "Err0rJsonMysqlPw",
    "frame": "hf_FrameT0kenAbCdEfGhIjKlMnOpQrStUv01",
    "thread": "sk_live_51Thr3adNameStripeAbCdEf9",
    "pg_desc": "Zm9vYmFyYmF6cGdEZXNjQWNjb3VudEtleTIx",
    "log_cookie": "eyJhbGciOiJIUzI1NiJ9.eyJzZXNzaW9uIjoiY29va2llLWxvZy0yMSJ9.Q2xvZ0Nvb2tpZVNpZzIx",
    "log_password_flag": "Fl4gPassw0rdSeed",
    "log_password_word": "W0rdPassSeed9",
    "log_mysql": "MysqlSeedPw77",
    "log_aws_bare": "Bq3xT9vLr2Tb/X8wYc5NpA1sD7fG4hJ6kE0uI9oP",
    "log_google": "AIzaSyLogLineKeyAbCdEfGhIjKlMnOpQr123456",
    "log_gitlab": "glpat-L0gLineT0kenAbCdEfGh",
    "log_npm": "npm_L0gLineT0kenAbCdEfGhIjKlMnOpQrStUv12",
    "log_stripe": "sk_live_51L0gLineStripeAbCdEfGh3",
    "log_azure_key": "QXp1cmVMb2dMaW5lQWNjb3VudEtleVNlZWQyMQ==",
    "log_azure_sig": "L0gLineSasSigAbCdEfGh%2BIjKl%3D",
    "log_wandb": "5eed21aa0123456789abcdef0123456789abcdef",
}

LOG_LINES = [
    "+ curl -s -H 'Cookie: session=%s' https://dash.internal/api" % SECRETS["log_cookie"],
    "+ python train.py --password %s --epochs 3" % SECRETS["log_password_flag"],
    "netrc: machine db.internal login svc password %s" % SECRETS["log_password_word"],
    "+ mysql -h db.internal -u svc -p%s runs -e 'select 1'" % SECRETS["log_mysql"],
    "aws secret from vault: %s" % SECRETS["log_aws_bare"],
    "maps client key %s" % SECRETS["log_google"],
    "+ git clone https://oauth2:%s@gitlab.example.com/ml/train.git" % SECRETS["log_gitlab"],
    "//registry.npmjs.org/:_authToken=%s" % SECRETS["log_npm"],
    "billing: stripe key %s loaded" % SECRETS["log_stripe"],
    "DefaultEndpointsProtocol=https;AccountName=ckpt;AccountKey=%s;EndpointSuffix=core.windows.net"
    % SECRETS["log_azure_key"],
    "GET https://ckpt.blob.core.windows.net/runs/step100.pt?sv=2022-11-02&sr=b&sig=%s HTTP/1.1"
    % SECRETS["log_azure_sig"],
    "wandb: WANDB_API_KEY %s" % SECRETS["log_wandb"],
]


def main():
    root = os.path.join(HERE, JOB)
    shutil.rmtree(root, ignore_errors=True)
    shutil.copytree(SCENARIO, root, ignore=shutil.ignore_patterns("expected.json"))

    # Item 8: every form, in a rank's log (before its first line, so the hang lines follow).
    path = os.path.join(root, "train-0003.out")
    with open(path) as f:
        text = f.read()
    with open(path, "w") as f:
        f.write("\n".join(LOG_LINES) + "\n" + text)

    # Item 7: a file name, an error.json message, dump frames, a thread name, a PG desc.
    with open(os.path.join(root, "notes-%s.txt" % SECRETS["file"]), "w") as f:
        f.write("operator notes: rerun after the IB link was replaced\n")
    error = {
        "message": {
            "message": "RuntimeError: auth failed for %s (stripe %s); retried: mysql -u svc -p%s"
            % (JWT, SECRETS["error_json_stripe"], SECRETS["error_json_mysql"]),
            "extraInfo": {"py_callstack": "", "timestamp": "1679203900"},
        }
    }
    with open(os.path.join(root, "error.json"), "w") as f:
        json.dump(error, f)
    for rank in (3, 4):
        path = os.path.join(root, "flight_recorder", "nccl_trace_rank_%d.json" % rank)
        with open(path) as f:
            dump = json.load(f)
        desc = "default_pg AccountKey=%s" % SECRETS["pg_desc"]
        for pg in dump["pg_config"].values():
            pg["desc"] = desc
        for entry in dump["entries"]:
            entry["process_group"] = [entry["process_group"][0], desc]
            entry["thread_name"] = "pt_main_thread %s" % SECRETS["thread"]
        dump["entries"][-1]["frames"] = [
            {"name": "train_step", "filename": "/work/train.py", "line": 120},
            {"name": "connect(token='%s')" % SECRETS["frame"], "filename": "/work/hub.py", "line": 7},
        ]
        with open(path, "w") as f:
            json.dump(dump, f)

    with open(os.path.join(HERE, "SECRETS.txt"), "w") as f:
        for value in SECRETS.values():
            f.write(value + "\n")


if __name__ == "__main__":
    main()
