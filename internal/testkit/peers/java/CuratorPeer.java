import java.util.concurrent.CountDownLatch;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.recipes.leader.LeaderLatch;
import org.apache.curator.framework.recipes.leader.LeaderSelector;
import org.apache.curator.framework.recipes.leader.LeaderSelectorListenerAdapter;
import org.apache.curator.framework.recipes.locks.InterProcessMultiLock;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.apache.curator.framework.recipes.locks.InterProcessReadWriteLock;
import org.apache.curator.framework.recipes.locks.InterProcessSemaphoreMutex;
import org.apache.curator.framework.recipes.locks.InterProcessSemaphoreV2;
import org.apache.curator.framework.recipes.locks.Lease;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.framework.api.ACLProvider;
import org.apache.curator.framework.imps.DefaultACLProvider;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Id;

/**
 * Apache Curator lock contenders for package peers, one CuratorFramework (one
 * session) each. Variants: mutex, mutex+revocable (made revocable: it
 * releases when a revocation request is written into its node), read, write, write+read (the write lock,
 * then the read lock on the same thread: Curator's downgrade),
 * semaphore:N (InterProcessSemaphoreV2 with maxLeases N), and the leader
 * elections leaderlatch (LeaderLatch: acquired once await() returns, that is
 * once hasLeadership()) and leaderselector (LeaderSelector: acquired while
 * takeLeadership runs). An election's participant id is the contender's ID.
 */
public final class CuratorPeer {
    public static void main(String[] args) throws Exception {
        Protocol.serve(args, CuratorPeer::open);
    }

    static Protocol.Contender open(String connect, String id, String variant, String path) throws Exception {
        CuratorFramework client = CuratorFrameworkFactory.builder().connectString(connect)
                .sessionTimeoutMs(10_000).connectionTimeoutMs(10_000).retryPolicy(new RetryOneTime(100))
                .aclProvider(aclProvider()).build();
        client.start();
        try {
            // No deadline of its own: the caller judges how long a connection
            // may take (a JVM by its progress, a test by its wait), and a
            // release asked for meanwhile interrupts the wait.
            client.blockUntilConnected();
            long session = client.getZookeeperClient().getZooKeeper().getSessionId();
            return recipe(client, session, id, variant, path);
        } catch (Exception e) {
            client.close();
            throw e;
        }
    }

    /**
     * The ACL of every node created: $ZKLOCKS_PEER_ACL, scheme:id:perms
     * entries separated by commas (perms of "crwda"), or Curator's default
     * (open to the world). SASL credentials come from the JAAS file's
     * Client section (java.security.auth.login.config).
     */
    private static ACLProvider aclProvider() {
        String spec = System.getenv("ZKLOCKS_PEER_ACL");
        if (spec == null || spec.isEmpty()) {
            return new DefaultACLProvider();
        }
        var acl = new java.util.ArrayList<ACL>();
        for (String entry : spec.split(",")) {
            int first = entry.indexOf(':'), last = entry.lastIndexOf(':');
            String perms = entry.substring(last + 1);
            int bits = 0;
            for (char c : perms.toCharArray()) {
                bits |= switch (c) {
                    case 'r' -> 1; case 'w' -> 2; case 'c' -> 4; case 'd' -> 8; case 'a' -> 16;
                    default -> throw new IllegalArgumentException("bad permission " + c + " in " + entry);
                };
            }
            acl.add(new ACL(bits, new Id(entry.substring(0, first), entry.substring(first + 1, last))));
        }
        return new ACLProvider() {
            @Override public java.util.List<ACL> getDefaultAcl() { return acl; }
            @Override public java.util.List<ACL> getAclForPath(String path) { return acl; }
        };
    }

    private static Protocol.Contender recipe(CuratorFramework client, long session, String id, String variant, String path) {
        if (variant.equals("leaderlatch")) {
            var latch = new LeaderLatch(client, path, id);
            return new Protocol.Contender(session, () -> { latch.start(); latch.await(); }, latch::close, client::close);
        }
        if (variant.equals("leaderselector")) {
            return selector(client, session, id, path);
        }
        if (variant.startsWith("semaphore:")) {
            var semaphore = new InterProcessSemaphoreV2(client, path, Integer.parseInt(variant.substring(10)));
            var lease = new Lease[1];
            return new Protocol.Contender(session, () -> lease[0] = semaphore.acquire(),
                    () -> semaphore.returnLease(lease[0]), client::close);
        }
        if (variant.equals("multilock")) {
            // path lists the locks, comma-separated, in the order taken.
            var multi = new InterProcessMultiLock(client, java.util.Arrays.asList(path.split(",")));
            return new Protocol.Contender(session, multi::acquire, multi::release, client::close);
        }
        if (variant.equals("semaphoremutex")) {
            var mutex = new InterProcessSemaphoreMutex(client, path);
            return new Protocol.Contender(session, mutex::acquire, mutex::release, client::close);
        }
        if (variant.equals("write+read")) {
            var rw = new InterProcessReadWriteLock(client, path);
            return new Protocol.Contender(session,
                    () -> { rw.writeLock().acquire(); rw.readLock().acquire(); },
                    () -> { rw.readLock().release(); rw.writeLock().release(); },
                    client::close);
        }
        if (variant.equals("mutex+revocable")) {
            var mutex = new InterProcessMutex(client, path);
            var revoked = new CountDownLatch(1);
            mutex.makeRevocable(lock -> revoked.countDown());
            return new Protocol.Contender(session, mutex::acquire, mutex::release, client::close, revoked);
        }
        InterProcessMutex mutex = switch (variant) {
            case "mutex" -> new InterProcessMutex(client, path);
            case "read" -> new InterProcessReadWriteLock(client, path).readLock();
            case "write" -> new InterProcessReadWriteLock(client, path).writeLock();
            default -> throw new IllegalArgumentException("unknown curator variant " + variant);
        };
        return new Protocol.Contender(session, mutex::acquire, mutex::release, client::close);
    }

    /** A LeaderSelector that leads from takeLeadership until released. */
    private static Protocol.Contender selector(CuratorFramework client, long session, String id, String path) {
        var leading = new CountDownLatch(1);
        var done = new CountDownLatch(1);
        var selector = new LeaderSelector(client, path, new LeaderSelectorListenerAdapter() {
            @Override public void takeLeadership(CuratorFramework c) throws Exception {
                leading.countDown();
                done.await();
            }
        });
        selector.setId(id);
        Runnable stop = () -> {
            done.countDown();
            try {
                selector.close();
            } catch (IllegalStateException alreadyClosed) {
                // released before, or never started
            }
        };
        return new Protocol.Contender(session, () -> { selector.start(); leading.await(); },
                stop::run, () -> { stop.run(); client.close(); });
    }
}
