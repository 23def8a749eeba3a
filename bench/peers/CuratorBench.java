// Apache Curator as a peer in the benchmark's own run (bench/curator-peer.ts drives it):
// BENCHMARKS.md's W1, W2, W7 and W8 on InterProcessMutex, InterProcessReadWriteLock and
// InterProcessSemaphoreV2, with the counts, warm-ups and hold times the Node workloads use.
//
//   java -cp <classes>:<Curator's jars> CuratorBench <W1|W1A|W2|W7|W8> <connect> key=value...
//
// W1A is W1 with `auth=<user:password>`: digest auth and a creator-only ACL on every node.
//
// The server's counters are read by the Node driver, so that the measured region is bracketed by
// the same mntr probe as the library's: for each region the program opens its sessions, warms up,
// prints "READY <label>" and waits for "GO" on stdin; it runs the region and prints
// "RESULT <label> <json>" with the raw timings (ms on System.nanoTime's clock; the driver
// summarizes them with the Node workloads' own code); then it waits for "NEXT" (the driver's second
// snapshot is taken) before it closes its sessions, which would otherwise count in the region.
// Diagnostics go to stderr.
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.api.ACLProvider;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.ACL;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.apache.curator.retry.RetryNTimes;

public class CuratorBench {
  static final BufferedReader STDIN = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
  static final int MAX_VIOLATION_SAMPLES = 20;
  static Map<String, String> params = new HashMap<>();
  static String connect;

  static int num(String key) {
    String value = params.get(key);
    if (value == null) throw new IllegalArgumentException("missing parameter " + key);
    return Integer.parseInt(value);
  }

  static double now() {
    return System.nanoTime() / 1e6;
  }

  /** BENCHMARKS.md's client configuration: the session timeout, connectionTimeoutMs = min(15000, it), RetryNTimes(3, 100). */
  static CuratorFramework client() throws Exception {
    int sessionTimeoutMs = num("session_timeout_ms");
    CuratorFrameworkFactory.Builder builder = CuratorFrameworkFactory.builder()
        .connectString(connect)
        .sessionTimeoutMs(sessionTimeoutMs)
        .connectionTimeoutMs(Math.min(15_000, sessionTimeoutMs))
        .retryPolicy(new RetryNTimes(3, 100));
    String auth = params.get("auth");
    if (auth != null) {
      // W1A: digest auth, and every node created with the creator-only ACL in its create (Curator's
      // ACLProvider), as the library's `auth` with `acl: 'creator'`.
      List<ACL> creatorAll = ZooDefs.Ids.CREATOR_ALL_ACL;
      builder.authorization("digest", auth.getBytes(StandardCharsets.UTF_8)).aclProvider(new ACLProvider() {
        public List<ACL> getDefaultAcl() { return creatorAll; }
        public List<ACL> getAclForPath(String path) { return creatorAll; }
      });
    }
    CuratorFramework c = builder.build();
    c.start();
    if (!c.blockUntilConnected(30, TimeUnit.SECONDS)) throw new IllegalStateException("not connected to " + connect);
    return c;
  }

  static List<CuratorFramework> clients(int count) throws Exception {
    List<CuratorFramework> list = new ArrayList<>();
    for (int i = 0; i < count; i++) list.add(client());
    return list;
  }

  static void expect(String wanted) throws Exception {
    String line = STDIN.readLine();
    if (!wanted.equals(line)) throw new IllegalStateException("expected " + wanted + " on stdin, got " + line);
  }

  /** READY, then the region once the driver says GO; RESULT, then back once it says NEXT. */
  static void measure(String label, Region region) throws Exception {
    System.out.println("READY " + label);
    System.out.flush();
    expect("GO");
    String json = region.run();
    System.out.println("RESULT " + label + " " + json);
    System.out.flush();
    expect("NEXT");
  }

  interface Region {
    String run() throws Exception;
  }

  interface Body {
    void run(int client) throws Exception;
  }

  /** One thread per client, released at once; rethrows the first failure after all joined. */
  static void inThreads(int count, Body body) throws Exception {
    CountDownLatch start = new CountDownLatch(1);
    List<Thread> threads = new ArrayList<>();
    List<Throwable> failures = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      final int client = i;
      Thread t = new Thread(() -> {
        try {
          start.await();
          body.run(client);
        } catch (Throwable e) {
          synchronized (failures) {
            failures.add(e);
          }
        }
      }, "client-" + i);
      t.start();
      threads.add(t);
    }
    start.countDown();
    for (Thread t : threads) t.join();
    if (!failures.isEmpty()) throw new IllegalStateException("client failed: " + failures.get(0), failures.get(0));
  }

  static void close(List<CuratorFramework> list) {
    for (CuratorFramework c : list) c.close();
  }

  // W1: one session, one InterProcessMutex reused; w1_warmup cycles, then w1_cycles timed.
  static void w1(String path) throws Exception {
    try (CuratorFramework c = client()) {
      InterProcessMutex mutex = new InterProcessMutex(c, path);
      for (int i = 0; i < num("w1_warmup"); i++) {
        mutex.acquire();
        mutex.release();
      }
      int cycles = num("w1_cycles");
      measure("w1", () -> {
        double[] latencies = new double[cycles];
        double start = now();
        for (int i = 0; i < cycles; i++) {
          double t = now();
          mutex.acquire();
          mutex.release();
          latencies[i] = now() - t;
        }
        double elapsed = now() - start;
        return "{\"elapsed_ms\":" + elapsed + ",\"cycle_ms\":" + Json.array(latencies) + "}";
      });
    }
  }

  // W2: C clients, each its own session and InterProcessMutex, one thread each, taking tickets.
  static double[][] contend(List<InterProcessMutex> mutexes, int total) throws Exception {
    double[] acq = new double[total];
    double[] rel = new double[total];
    AtomicInteger tickets = new AtomicInteger();
    AtomicInteger order = new AtomicInteger(); // only the holder increments it: k is the lock order
    inThreads(mutexes.size(), (client) -> {
      InterProcessMutex mutex = mutexes.get(client);
      while (tickets.getAndIncrement() < total) {
        mutex.acquire();
        double tA = now();
        int k = order.getAndIncrement();
        mutex.release();
        double tR = now();
        acq[k] = tA;
        rel[k] = tR;
      }
    });
    if (order.get() != total) throw new IllegalStateException("expected " + total + " acquisitions, counted " + order.get());
    return new double[][] {acq, rel};
  }

  static void w2(String path, int count) throws Exception {
    List<CuratorFramework> list = clients(count);
    try {
      List<InterProcessMutex> mutexes = new ArrayList<>();
      for (CuratorFramework c : list) mutexes.add(new InterProcessMutex(c, path));
      contend(mutexes, num("w2_warmup"));
      int total = num("w2_acquisitions");
      measure("c" + count, () -> {
        double tStart = now();
        double[][] times = contend(mutexes, total);
        return "{\"t_start\":" + tStart + ",\"acq\":" + Json.array(times[0]) + ",\"rel\":" + Json.array(times[1]) + "}";
      });
    } finally {
      close(list);
    }
  }

  /** The recipes jar's Maven version (its manifest has none). */
  static String curatorVersion() throws java.io.IOException {
    try (java.io.InputStream in = InterProcessMutex.class.getResourceAsStream("/META-INF/maven/org.apache.curator/curator-recipes/pom.properties")) {
      if (in == null) return "unknown";
      java.util.Properties pom = new java.util.Properties();
      pom.load(in);
      return pom.getProperty("version", "unknown");
    }
  }

  public static void main(String[] args) throws Exception {
    String workload = args[0];
    connect = args[1];
    for (int i = 2; i < args.length; i++) {
      int eq = args[i].indexOf('=');
      params.put(args[i].substring(0, eq), args[i].substring(eq + 1));
    }
    String path = params.get("path");
    System.out.println("INFO {\"impl_version\":" + Json.string(curatorVersion()) + ",\"zookeeper_client_version\":"
        + Json.string(org.apache.zookeeper.Version.getFullVersion()) + "}");
    switch (workload) {
      case "W1", "W1A" -> w1(path);
      case "W2" -> {
        for (String c : params.get("w2_clients").split(",")) w2(path, Integer.parseInt(c));
      }
      case "W7" -> SharedBench.w7(path);
      case "W8" -> SharedBench.w8(path);
      default -> throw new IllegalArgumentException("unknown workload " + workload);
    }
    System.out.println("DONE");
    System.out.flush();
    System.exit(0); // Curator's and ZooKeeper's threads are closed; do not wait on a stray one
  }
}
