import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher.Event.KeeperState;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.recipes.lock.LockListener;
import org.apache.zookeeper.recipes.lock.WriteLock;

/**
 * ZooKeeper's own lock recipe (zookeeper-recipes-lock) for package peers: one
 * ZooKeeper client (one session) per contender. Variant: writelock.
 * WriteLock.lock() does not block; its LockListener says when the lock is ours.
 * The recipe creates only the lock node's parent, so we create its ancestors.
 */
public final class ZkRecipePeer {
    public static void main(String[] args) throws Exception {
        Protocol.serve(args, ZkRecipePeer::open);
    }

    static Protocol.Contender open(String connect, String variant, String path) throws Exception {
        if (!variant.equals("writelock")) {
            throw new IllegalArgumentException("unknown zkrecipe variant " + variant);
        }
        var connected = new CountDownLatch(1);
        var zk = new ZooKeeper(connect, 10_000, event -> {
            if (event.getState() == KeeperState.SyncConnected) {
                connected.countDown();
            }
        });
        if (!connected.await(10, TimeUnit.SECONDS)) {
            zk.close();
            throw new IllegalStateException("not connected to " + connect);
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
