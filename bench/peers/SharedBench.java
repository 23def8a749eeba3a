// CuratorBench's W7 (InterProcessReadWriteLock, read-mostly) and W8 (InterProcessSemaphoreV2, 4
// leases): locks held by more than one client at once. As in the Node workloads there is no
// warm-up (BENCHMARKS.md defines none): the first operation creates the lock's directory inside
// the measured region. Exclusion is checked on the side with counters of current holders, under
// one monitor: a holder counts itself in when its acquire returns and out just before it releases.
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.apache.curator.framework.recipes.locks.InterProcessReadWriteLock;
import org.apache.curator.framework.recipes.locks.InterProcessSemaphoreV2;
import org.apache.curator.framework.recipes.locks.Lease;

final class SharedBench {
  private SharedBench() {}

  /** Holders now, the most seen at once, and the violations (counted, the first few described). */
  static final class Holders {
    int readers;
    int writers;
    int holders;
    int maxReaders;
    int maxHolders;
    int violations;
    final List<String> samples = new ArrayList<>();
    double lastRelease = Double.NEGATIVE_INFINITY;

    void violation(String what) {
      violations++;
      if (samples.size() < CuratorBench.MAX_VIOLATION_SAMPLES) samples.add(what);
    }

    synchronized void released(double t) {
      if (t > lastRelease) lastRelease = t;
    }

    String json() {
      return "\"max_readers\":" + maxReaders + ",\"max_holders\":" + maxHolders + ",\"violations\":" + violations
          + ",\"violation_samples\":" + Json.strings(samples) + ",\"last_release\":" + lastRelease;
    }
  }

  // W7: w7_clients clients on one InterProcessReadWriteLock; ticket k is a write when k % w7_write_every == 0.
  static void w7(String path) throws Exception {
    int count = CuratorBench.num("w7_clients");
    int total = CuratorBench.num("w7_operations");
    int writeEvery = CuratorBench.num("w7_write_every");
    List<CuratorFramework> list = CuratorBench.clients(count);
    try {
      List<InterProcessReadWriteLock> locks = new ArrayList<>();
      for (CuratorFramework c : list) locks.add(new InterProcessReadWriteLock(c, path));
      CuratorBench.measure("w7", () -> {
        List<Double> readMs = new ArrayList<>();
        List<Double> writeMs = new ArrayList<>();
        AtomicInteger tickets = new AtomicInteger();
        Holders h = new Holders();
        double tStart = CuratorBench.now();
        CuratorBench.inThreads(count, (client) -> {
          for (;;) {
            int k = tickets.getAndIncrement();
            if (k >= total) return;
            boolean write = k % writeEvery == 0;
            InterProcessMutex mutex = write ? locks.get(client).writeLock() : locks.get(client).readLock();
            double t = CuratorBench.now();
            mutex.acquire();
            double tA = CuratorBench.now();
            synchronized (h) {
              (write ? writeMs : readMs).add(tA - t);
              if (write) {
                h.writers++;
                if (h.writers > 1 || h.readers > 0) {
                  h.violation("ticket " + k + " (client " + client + ") got the write lock while " + (h.writers - 1) + " writer(s) and " + h.readers + " reader(s) held");
                }
              } else {
                h.readers++;
                if (h.writers > 0) h.violation("ticket " + k + " (client " + client + ") got a read lock while " + h.writers + " writer(s) held");
                h.maxReaders = Math.max(h.maxReaders, h.readers);
              }
            }
            // As the Node workload's one event-loop turn: let another holder be seen at once.
            Thread.yield();
            synchronized (h) {
              if (write) h.writers--;
              else h.readers--;
            }
            mutex.release();
            h.released(CuratorBench.now());
          }
        });
        return "{\"t_start\":" + tStart + ",\"read_ms\":" + Json.array(readMs) + ",\"write_ms\":" + Json.array(writeMs) + "," + h.json() + "}";
      });
    } finally {
      CuratorBench.close(list);
    }
  }

  // W8: w8_clients clients on one InterProcessSemaphoreV2 of w8_max_leases; each lease held w8_hold_ms.
  static void w8(String path) throws Exception {
    int count = CuratorBench.num("w8_clients");
    int permits = CuratorBench.num("w8_max_leases");
    int total = CuratorBench.num("w8_acquisitions");
    int holdMs = CuratorBench.num("w8_hold_ms");
    List<CuratorFramework> list = CuratorBench.clients(count);
    try {
      List<InterProcessSemaphoreV2> semaphores = new ArrayList<>();
      for (CuratorFramework c : list) semaphores.add(new InterProcessSemaphoreV2(c, path, permits));
      CuratorBench.measure("w8", () -> {
        List<Double> acquireMs = new ArrayList<>();
        AtomicInteger tickets = new AtomicInteger();
        AtomicInteger started = new AtomicInteger();
        Holders h = new Holders();
        double tStart = CuratorBench.now();
        CuratorBench.inThreads(count, (client) -> {
          InterProcessSemaphoreV2 semaphore = semaphores.get(client);
          while (tickets.getAndIncrement() < total) {
            int n = started.incrementAndGet();
            double t = CuratorBench.now();
            Lease lease = semaphore.acquire();
            double tA = CuratorBench.now();
            synchronized (h) {
              acquireMs.add(tA - t);
              h.holders++;
              h.maxHolders = Math.max(h.maxHolders, h.holders);
              if (h.holders > permits) {
                h.violation("client " + client + " got a permit while " + (h.holders - 1) + " holder(s) of " + permits + " permits held (acquisition " + n + ")");
              }
            }
            Thread.sleep(holdMs);
            synchronized (h) {
              h.holders--;
            }
            semaphore.returnLease(lease);
            h.released(CuratorBench.now());
          }
        });
        return "{\"t_start\":" + tStart + ",\"acquire_ms\":" + Json.array(acquireMs) + "," + h.json() + "}";
      });
    } finally {
      CuratorBench.close(list);
    }
  }
}
