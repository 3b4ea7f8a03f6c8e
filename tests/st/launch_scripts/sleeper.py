"""Each rank starts a child process and sleeps; it writes both pids to <dir>/pids_<rank> (argv[1]). With
argv[2] == "stubborn" the rank ignores SIGTERM (the launcher must escalate to SIGKILL)."""

import os
import signal
import subprocess
import sys
import time

rank = os.environ["RANK_ID"]
if len(sys.argv) > 2 and sys.argv[2] == "stubborn":
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
with open(os.path.join(sys.argv[1], f"pids_{rank}.tmp"), "w") as f:
    f.write(f"{os.getpid()} {child.pid}")
os.replace(os.path.join(sys.argv[1], f"pids_{rank}.tmp"), os.path.join(sys.argv[1], f"pids_{rank}"))
time.sleep(600)
