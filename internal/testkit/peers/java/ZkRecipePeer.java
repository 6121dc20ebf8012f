import java.util.concurrent.CountDownLatch;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher.Event.KeeperState;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.recipes.leader.LeaderElectionSupport;
import org.apache.zookeeper.recipes.lock.LockListener;
import org.apache.zookeeper.recipes.lock.WriteLock;

/**
 * ZooKeeper's own recipes for package peers: one ZooKeeper client (one
 * session) per contender. Variants: writelock (zookeeper-recipes-lock's
 * WriteLock) and election (zookeeper-recipes-election's
 * LeaderElectionSupport, its host name the contender's ID).
 * WriteLock.lock() does not block; its LockListener says when the lock is ours.
 * The recipe creates only the lock node's parent, so we create its ancestors.
 * LeaderElectionSupport creates no parent at all, so we create its root; it
 * says ELECTED_COMPLETE once it leads.
 */
public final class ZkRecipePeer {
    public static void main(String[] args) throws Exception {
        Protocol.serve(args, ZkRecipePeer::open);
    }

    static Protocol.Contender open(String connect, String id, String variant, String path) throws Exception {
        if (!variant.equals("writelock") && !variant.equals("election")) {
            throw new IllegalArgumentException("unknown zkrecipe variant " + variant);
        }
        var connected = new CountDownLatch(1);
        var zk = new ZooKeeper(connect, 10_000, event -> {
            if (event.getState() == KeeperState.SyncConnected) {
                connected.countDown();
            }
        });
        // No deadline of its own: the caller judges how long a connection
        // may take, and a release asked for meanwhile interrupts the wait.
        try {
            connected.await();
        } catch (InterruptedException e) {
            zk.close();
            throw e;
        }
        if (variant.equals("election")) {
            return election(zk, id, path);
        }
        createParents(zk, path);
        var acquired = new CountDownLatch(1);
        var lock = new WriteLock(zk, path, ZooDefs.Ids.OPEN_ACL_UNSAFE, new LockListener() {
            @Override public void lockAcquired() { acquired.countDown(); }
            @Override public void lockReleased() {}
        });
        return new Protocol.Contender(zk.getSessionId(),
                () -> { if (!lock.lock()) acquired.await(); },
                lock::unlock,
                () -> { lock.close(); close(zk); });
    }

    private static Protocol.Contender election(ZooKeeper zk, String id, String path) throws Exception {
        createParents(zk, path + "/n_");
        var elected = new CountDownLatch(1);
        var election = new LeaderElectionSupport();
        election.setZooKeeper(zk);
        election.setRootNodeName(path);
        election.setHostName(id);
        election.addListener(event -> {
            if (event == LeaderElectionSupport.EventType.ELECTED_COMPLETE) {
                elected.countDown();
            }
        });
        return new Protocol.Contender(zk.getSessionId(),
                () -> { election.start(); elected.await(); },
                election::stop,
                () -> close(zk));
    }

    /** Creates the ancestors of path, which the recipe expects to exist. */
    private static void createParents(ZooKeeper zk, String path) throws Exception {
        for (int i = path.indexOf('/', 1); i > 0; i = path.indexOf('/', i + 1)) {
            try {
                zk.create(path.substring(0, i), new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            } catch (KeeperException.NodeExistsException e) {
                // already there
            }
        }
    }

    private static void close(ZooKeeper zk) {
        try {
            zk.close();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
