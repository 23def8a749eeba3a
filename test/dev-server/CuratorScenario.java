// A scripted Curator 5 session against a ZooKeeper at args[0], under the root znode args[1]:
// an InterProcessMutex taken in turn by two clients (the second waits until the first releases),
// a LeaderLatch of two participants where the leader closes and the other takes over, and
// transactions (multi), one of which fails as a whole.
// Prints one line per step; the test (curator.test.ts) checks the lines. Exits 0 on success.
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.recipes.leader.LeaderLatch;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.apache.curator.retry.RetryNTimes;

public class CuratorScenario {
  static final long WAIT_S = 20;

  static CuratorFramework client(String connect) throws Exception {
    CuratorFramework c = CuratorFrameworkFactory.builder()
        .connectString(connect)
        .sessionTimeoutMs(10_000)
        .connectionTimeoutMs(10_000)
        .retryPolicy(new RetryNTimes(3, 200))
        .build();
    c.start();
    if (!c.blockUntilConnected((int) WAIT_S, TimeUnit.SECONDS)) throw new IllegalStateException("not connected to " + connect);
    return c;
  }

  static void check(boolean ok, String what) {
    if (!ok) throw new IllegalStateException(what);
  }

  public static void main(String[] args) throws Exception {
    String connect = args[0];
    String root = args[1];
    try (CuratorFramework a = client(connect); CuratorFramework b = client(connect)) {
      System.out.println("connected 2");

      // InterProcessMutex: a holds; b's acquire waits until a releases.
      InterProcessMutex lockA = new InterProcessMutex(a, root + "/lock");
      InterProcessMutex lockB = new InterProcessMutex(b, root + "/lock");
      check(lockA.acquire(WAIT_S, TimeUnit.SECONDS), "a acquires");
      System.out.println("mutex a holds");
      check(!lockB.acquire(500, TimeUnit.MILLISECONDS), "b must not acquire while a holds");
      System.out.println("mutex b waits");
      // InterProcessMutex belongs to the thread that acquired it: b acquires and releases in its own.
      CountDownLatch bHolds = new CountDownLatch(1);
      CountDownLatch bMayRelease = new CountDownLatch(1);
      CountDownLatch bReleased = new CountDownLatch(1);
      Thread waiter = new Thread(() -> {
        try {
          if (!lockB.acquire(WAIT_S, TimeUnit.SECONDS)) return;
          bHolds.countDown();
          if (bMayRelease.await(WAIT_S, TimeUnit.SECONDS)) {
            lockB.release();
            bReleased.countDown();
          }
        } catch (Exception e) {
          e.printStackTrace();
        }
      });
      waiter.start();
      check(!bHolds.await(300, TimeUnit.MILLISECONDS), "b acquired while a held");
      lockA.release();
      System.out.println("mutex a released");
      check(bHolds.await(WAIT_S, TimeUnit.SECONDS), "b acquires after a released");
      System.out.println("mutex b holds");
      bMayRelease.countDown();
      check(bReleased.await(WAIT_S, TimeUnit.SECONDS), "b releases");
      waiter.join();
      System.out.println("mutex b released");
      check(a.getChildren().forPath(root + "/lock").isEmpty(), "no lock node left");
      System.out.println("mutex nodes left 0");

      // LeaderLatch: the first to start leads; when it closes, the other takes over.
      LeaderLatch latchA = new LeaderLatch(a, root + "/leader", "a");
      latchA.start();
      check(latchA.await(WAIT_S, TimeUnit.SECONDS), "a leads");
      LeaderLatch latchB = new LeaderLatch(b, root + "/leader", "b");
      latchB.start();
      check(!latchB.await(500, TimeUnit.MILLISECONDS), "b must not lead while a does");
      System.out.println("latch leader " + latchB.getLeader().getId() + " participants " + latchB.getParticipants().size());
      latchA.close();
      check(latchB.await(WAIT_S, TimeUnit.SECONDS), "b leads after a closed");
      System.out.println("latch leader " + latchB.getLeader().getId() + " participants " + latchB.getParticipants().size());
      latchB.close();

      // A transaction (multi): all of it applies, or none.
      java.util.List<org.apache.curator.framework.api.transaction.CuratorTransactionResult> results = a.transaction().forOperations(
          a.transactionOp().create().forPath(root + "/tx", "1".getBytes()),
          a.transactionOp().setData().forPath(root + "/tx", "2".getBytes()),
          a.transactionOp().check().withVersion(1).forPath(root + "/tx"));
      System.out.println("transaction " + results.size() + " " + new String(a.getData().forPath(root + "/tx")));
      try {
        a.transaction().forOperations(
            a.transactionOp().create().forPath(root + "/tx2"),
            a.transactionOp().check().withVersion(7).forPath(root + "/tx"));
        System.out.println("failed transaction applied");
      } catch (org.apache.zookeeper.KeeperException.BadVersionException e) {
        System.out.println("failed transaction " + e.code() + " tx2 " + a.checkExists().forPath(root + "/tx2"));
      }
      System.out.println("done");
    }
  }
}
