"""A scripted kazoo session against a ZooKeeper at argv[1], under the root znode argv[2]: a Lock
taken by two clients in turn, an Election whose leader steps down (its function returns) and the other takes over,
an ephemeral sequential node, a watch that fires, and transactions (multi). Prints one line per step; the test
(kazoo.test.ts) checks the lines. Exits 0 on success; every wait is bounded."""
import sys
import threading

from kazoo.client import KazooClient

WAIT_S = 20
connect, root = sys.argv[1], sys.argv[2]


def client():
    c = KazooClient(hosts=connect, timeout=10.0)
    c.start(timeout=WAIT_S)
    return c


def check(ok, what):
    if not ok:
        raise SystemExit("failed: " + what)


a, b = client(), client()
print("connected 2", flush=True)

# Lock: a holds; b's acquire waits until a releases.
lock_a = a.Lock(root + "/lock", "a")
lock_b = b.Lock(root + "/lock", "b")
check(lock_a.acquire(timeout=WAIT_S), "a acquires")
print("lock a holds", flush=True)
check(not lock_b.acquire(blocking=False), "b must not acquire while a holds")
print("lock contenders " + ",".join(lock_b.contenders()), flush=True)
b_holds = threading.Event()
waiter = threading.Thread(target=lambda: lock_b.acquire(timeout=WAIT_S) and b_holds.set())
waiter.start()
check(not b_holds.wait(0.3), "b acquired while a held")
lock_a.release()
print("lock a released", flush=True)
check(b_holds.wait(WAIT_S), "b acquires after a released")
waiter.join(WAIT_S)
print("lock b holds", flush=True)
lock_b.release()
print("lock nodes left %d" % len(a.get_children(root + "/lock")), flush=True)

# Election: a leads; when a's function returns, a leaves the election and b's run() is called.
led = []
b_leads = threading.Event()
a_leads = threading.Event()
a_may_stop = threading.Event()
election_a = a.Election(root + "/election", "a")
election_b = b.Election(root + "/election", "b")


def lead_a():
    led.append("a")
    a_leads.set()
    a_may_stop.wait(WAIT_S)


thread_a = threading.Thread(target=lambda: election_a.run(lead_a))
thread_a.start()
check(a_leads.wait(WAIT_S), "a leads")
thread_b = threading.Thread(target=lambda: election_b.run(lambda: (led.append("b"), b_leads.set())))
thread_b.start()
check(not b_leads.wait(0.3), "b led while a did")
print("election contenders " + ",".join(election_b.contenders()), flush=True)
a_may_stop.set()
thread_a.join(WAIT_S)
check(b_leads.wait(WAIT_S), "b leads after a stepped down")
thread_b.join(WAIT_S)
print("election led " + ",".join(led), flush=True)

# An ephemeral sequential node, and a watch on it that fires when a's session ends.
node = b.create(root + "/eph-", b"x", ephemeral=True, sequence=True)
print("ephemeral sequential " + node[len(root) + 1:], flush=True)
fired = threading.Event()
events = []


def watch(event):
    events.append("%s %s" % (event.type, event.path[len(root) + 1:]))
    fired.set()


mine = a.create(root + "/mine-", b"", ephemeral=True, sequence=True)
check(b.exists(mine, watch=watch) is not None, "a's node exists")
a.stop()
a.close()
check(fired.wait(WAIT_S), "the watch fires when a's session ends")
print("watch " + ",".join(events), flush=True)
b.delete(node)

# A transaction: all of it applies, or none (the failed op's error, the others rolled back).
t = b.transaction()
t.create(root + "/tx", b"1")
t.set_data(root + "/tx", b"2")
t.check(root + "/tx", 1)
print("transaction " + ",".join(type(r).__name__ for r in t.commit()), flush=True)
t = b.transaction()
t.create(root + "/tx2", b"")
t.check(root + "/tx", 7)
t.delete(root + "/tx")
print("failed transaction " + ",".join(type(r).__name__ for r in t.commit()), flush=True)
print("after it tx=%s tx2=%s" % (b.get(root + "/tx")[0].decode(), b.exists(root + "/tx2")), flush=True)
b.stop()
b.close()
print("done", flush=True)
