"""kazoo lock contenders for package peers (see peers.go for the protocol).

stdin:  acquire ID VARIANT PATH | release ID | quit
stdout: session ID HEXSESSION | acquired ID | released ID | error ID MESSAGE

Variants: lock (Lock), read (ReadLock), write (WriteLock), semaphore:N
(Semaphore with max_leases=N) and election (Election: acquired while its
leader function runs). Each contender has its own KazooClient, so its
own session, and its own thread; its identifier (the node data) is its ID.
EOF on stdin ends the process, so a test binary that dies leaves nothing behind.
"""
import os
import sys
import threading

from kazoo.client import KazooClient
from kazoo.security import make_acl

_out = threading.Lock()


def say(*words):
    with _out:
        sys.stdout.write(" ".join(words).replace("\n", " ") + "\n")
        sys.stdout.flush()


class Election(object):
    """kazoo's Election as acquire/release/cancel: Election.run blocks for
    the whole leadership, so it runs on a thread of its own."""

    def __init__(self, client, path, identifier):
        self._election = client.Election(path, identifier)
        self._leading = threading.Event()
        self._done = threading.Event()
        self._failure = None
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self):
        try:
            self._election.run(self._lead)
        except Exception as e:  # reported by acquire, or moot once stopped
            self._failure = e

    def _lead(self):
        self._leading.set()
        self._done.wait()

    def acquire(self):
        self._thread.start()
        while not self._leading.wait(0.05):
            if not self._thread.is_alive():
                if self._failure is not None:
                    raise self._failure
                return False
        return True

    def release(self):
        self._done.set()
        self._thread.join()

    def cancel(self):
        self._election.cancel()


def recipe(client, variant, path, identifier):
    if variant == "election":
        return Election(client, path, identifier)
    if variant.startswith("semaphore:"):
        return client.Semaphore(path, identifier, max_leases=int(variant[10:]))
    make = {"lock": client.Lock, "read": client.ReadLock, "write": client.WriteLock}
    if variant not in make:
        raise ValueError("unknown kazoo variant " + variant)
    return make[variant](path, identifier)


def client_options():
    """SASL and ACL settings from the environment (package peers' WithSASL):
    ZKLOCKS_PEER_SASL_USER and _PASSWORD authenticate by DIGEST-MD5,
    ZKLOCKS_PEER_ACL is the ACL of every node created, as
    scheme:id:perms entries separated by commas (perms of "crwda")."""
    opts = {}
    user = os.environ.get("ZKLOCKS_PEER_SASL_USER")
    if user:
        opts["sasl_options"] = {"mechanism": "DIGEST-MD5", "username": user,
                                "password": os.environ["ZKLOCKS_PEER_SASL_PASSWORD"]}
    spec = os.environ.get("ZKLOCKS_PEER_ACL")
    if spec:
        acl = []
        for entry in spec.split(","):
            scheme, rest = entry.split(":", 1)
            ident, perms = rest.rsplit(":", 1)
            acl.append(make_acl(scheme, ident, read="r" in perms, write="w" in perms, create="c" in perms,
                                delete="d" in perms, admin="a" in perms))
        opts["default_acl"] = acl
    return opts


class Contender(threading.Thread):
    def __init__(self, connect, cid, variant, path):
        super().__init__(daemon=True)
        self.connect, self.cid, self.variant, self.path = connect, cid, variant, path
        self.client = None
        self.recipe = None
        self.releasing = threading.Event()
        self._stop = threading.Lock()

    def release(self):
        """Asks the thread to release; cancels an acquire still waiting."""
        self.releasing.set()
        if self.recipe is not None:
            self.recipe.cancel()

    def run(self):
        try:
            client = self.client = KazooClient(hosts=self.connect, timeout=10, **client_options())
            # No deadline of its own: the caller judges how long a
            # connection may take (by the process's progress, or its own
            # wait); a release asked for meanwhile ends the wait.
            connected = client.start_async()
            while not connected.wait(0.05) and not self.releasing.is_set():
                pass
            if not self.releasing.is_set():
                self.recipe = recipe(client, self.variant, self.path, self.cid)
                say("session", self.cid, "%x" % client.client_id[0])
                if not self.releasing.is_set() and self.recipe.acquire():
                    say("acquired", self.cid)
                    self.releasing.wait()
                    self.recipe.release()
        except Exception as e:
            if not self.releasing.is_set():
                say("error", self.cid, repr(e))
        finally:
            self.stop()
        if self.releasing.is_set():
            say("released", self.cid)

    def stop(self):
        """Closes the session; the main thread may call it too, on quit."""
        with self._stop:
            if self.client is not None:
                self.client.stop()
                self.client.close()
                self.client = None


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: kazoo_peer.py CONNECT-STRING")
    contenders = {}
    for line in iter(sys.stdin.readline, ""):
        words = line.split()
        if words[:1] == ["acquire"] and len(words) == 4:
            if words[1] in contenders:
                say("error", words[1], "contender already exists")
                continue
            c = contenders[words[1]] = Contender(sys.argv[1], *words[1:])
            c.start()
        elif words[:1] == ["release"] and len(words) == 2:
            c = contenders.pop(words[1], None)
            if c is None:
                say("error", words[1], "no such contender")
            else:
                c.release()
        elif words == ["quit"]:
            break
        elif words:
            say("error", "-", "bad command: " + line.strip())
    for c in contenders.values():
        c.stop()
    os._exit(0)


if __name__ == "__main__":
    main()
