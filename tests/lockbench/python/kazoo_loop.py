"""Loop program for package lockbench: N kazoo Lock contenders on one path.

usage:  kazoo_loop.py CONNECT PATH N SESSION_MS
stdin:  go | count | stop
stdout: ready | count N0 N1 ... | hold ID ACQUIRED_US RELEASING_US | disconnects N | done | error MESSAGE

Each contender has its own KazooClient (its own session) and thread, and
loops acquire, read the clock twice, release, reusing one Lock as kazoo's
documentation does. Times are epoch microseconds from the wall clock
(time.time_ns), the clock the Go side reads too. EOF on stdin ends the
process at once.
"""
import os
import sys
import threading
import time

from kazoo.client import KazooClient, KazooState


def micros():
    return time.time_ns() // 1000


class Contender(threading.Thread):
    looping = False
    stopping = False
    disconnects = 0  # connections suspended or lost while looping
    _count = threading.Lock()

    def __init__(self, cid, connect, path, session_s):
        super().__init__(daemon=True)
        self.cid = cid
        self.client = KazooClient(hosts=connect, timeout=session_s)
        self.client.start(timeout=30)
        self.client.add_listener(self._state)
        self.lock = self.client.Lock(path, str(cid))
        self.times = []  # len(self.times) answers count
        self.error = None

    @staticmethod
    def _state(state):
        if Contender.looping and not Contender.stopping and state != KazooState.CONNECTED:
            with Contender._count:
                Contender.disconnects += 1

    def run(self):
        try:
            while not Contender.stopping:
                self.lock.acquire()
                acquired = micros()
                releasing = micros()
                self.times.append((acquired, releasing))
                self.lock.release()
        except Exception as e:  # reported by main
            self.error = e


def say(line):
    sys.stdout.write(line.replace("\n", " ") + "\n")
    sys.stdout.flush()


def main():
    if len(sys.argv) != 5:
        sys.exit("usage: kazoo_loop.py CONNECT PATH N SESSION_MS")
    connect, path, n, session_ms = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    try:
        contenders = [Contender(i, connect, path, session_ms / 1000.0) for i in range(n)]
    except Exception as e:
        say("error " + repr(e))
        os._exit(1)
    say("ready")
    if sys.stdin.readline().strip() != "go":
        os._exit(0)
    Contender.looping = True
    for c in contenders:
        c.start()
    while True:
        line = sys.stdin.readline().strip()
        if line == "stop":
            break
        if line != "count":
            os._exit(0)
        for c in contenders:
            if c.error is not None:  # it stopped counting: say why now
                say("error contender %d: %r" % (c.cid, c.error))
                os._exit(1)
        say("count " + " ".join(str(len(c.times)) for c in contenders))
    Contender.stopping = True
    for c in contenders:
        c.join(60)
    out = []
    for c in contenders:
        if c.error is not None or c.is_alive():
            say("error contender %d: %r" % (c.cid, c.error or "still looping"))
            os._exit(1)
        out.extend("hold %d %d %d\n" % (c.cid, a, r) for a, r in c.times)
    sys.stdout.write("".join(out))
    say("disconnects %d" % Contender.disconnects)
    say("done")
    for c in contenders:
        c.client.stop()
        c.client.close()
    os._exit(0)


if __name__ == "__main__":
    main()
