import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.retry.RetryOneTime;

/**
 * Loop program for package lockbench: N Apache Curator InterProcessMutex
 * contenders on one lock path, each with its own CuratorFramework (its own
 * session) and thread, each looping acquire, read the clock twice, release.
 *
 * <pre>
 * usage:  CuratorLoop CONNECT PATH N SESSION_MS
 * stdin:  go | count | stop
 * stdout: ready | count N0 N1 ... | hold ID ACQUIRED_US RELEASING_US | disconnects N | done | error MESSAGE
 * </pre>
 *
 * Times are epoch microseconds from the wall clock (Instant.now), the clock
 * the Go side reads too. EOF on stdin ends the process at once.
 */
public final class CuratorLoop {
    private static volatile boolean looping, stopping;
    /** Connections that were suspended or lost while looping. */
    private static final AtomicLong disconnects = new AtomicLong();

    /** One contender's session, lock and record. */
    private static final class Contender {
        final int id;
        final CuratorFramework client;
        final InterProcessMutex mutex;
        long[] times = new long[2048]; // acquired, releasing, acquired, ...
        int n;
        /** Acquisitions so far, read by main to answer count. */
        volatile long acquisitions;
        volatile Exception error;

        Contender(int id, String connect, String path, int sessionMs) throws Exception {
            this.id = id;
            client = CuratorFrameworkFactory.newClient(connect, sessionMs, 15_000, new RetryOneTime(100));
            client.start();
            if (!client.blockUntilConnected(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("contender " + id + ": not connected to " + connect);
            }
            client.getConnectionStateListenable().addListener((c, state) -> {
                if (looping && !stopping && (state == ConnectionState.SUSPENDED || state == ConnectionState.LOST)) {
                    disconnects.incrementAndGet();
                }
            });
            mutex = new InterProcessMutex(client, path);
        }

        void loop() {
            try {
                while (!stopping) {
                    mutex.acquire();
                    long acquired = micros();
                    long releasing = micros();
                    record(acquired, releasing);
                    mutex.release();
                }
            } catch (Exception e) {
                error = e;
            }
        }

        private void record(long acquired, long releasing) {
            if (n + 2 > times.length) {
                times = Arrays.copyOf(times, times.length * 2);
            }
            times[n++] = acquired;
            times[n++] = releasing;
            acquisitions++; // this thread alone writes it
        }
    }

    static long micros() {
        Instant t = Instant.now();
        return t.getEpochSecond() * 1_000_000L + t.getNano() / 1_000;
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 4) {
            System.err.println("usage: CuratorLoop CONNECT PATH N SESSION_MS");
            System.exit(2);
        }
        var out = new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), 1 << 16);
        var in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        List<Contender> contenders = new ArrayList<>();
        try {
            for (int i = 0; i < Integer.parseInt(args[2]); i++) {
                contenders.add(new Contender(i, args[0], args[1], Integer.parseInt(args[3])));
            }
        } catch (Exception e) {
            say(out, "error " + e);
            Runtime.getRuntime().halt(1);
        }
        say(out, "ready");
        if (!"go".equals(in.readLine())) {
            Runtime.getRuntime().halt(0);
        }
        looping = true;
        List<Thread> threads = new ArrayList<>();
        for (Contender c : contenders) {
            Thread t = new Thread(c::loop, "contender-" + c.id);
            t.setDaemon(true);
            t.start();
            threads.add(t);
        }
        for (String line = in.readLine(); !"stop".equals(line); line = in.readLine()) {
            if (!"count".equals(line)) {
                Runtime.getRuntime().halt(0);
            }
            var counts = new StringBuilder("count");
            for (Contender c : contenders) {
                if (c.error != null) { // a contender that failed stops counting: say why now
                    say(out, "error contender " + c.id + ": " + c.error);
                    Runtime.getRuntime().halt(1);
                }
                counts.append(' ').append(c.acquisitions);
            }
            say(out, counts.toString());
        }
        stopping = true;
        for (Thread t : threads) {
            t.join(60_000);
            if (t.isAlive()) {
                say(out, "error " + t.getName() + " still looping 60s after stop");
                Runtime.getRuntime().halt(1);
            }
        }
        for (Contender c : contenders) {
            if (c.error != null) {
                say(out, "error contender " + c.id + ": " + c.error);
                Runtime.getRuntime().halt(1);
            }
            for (int i = 0; i < c.n; i += 2) {
                out.write("hold " + c.id + " " + c.times[i] + " " + c.times[i + 1] + "\n");
            }
        }
        say(out, "disconnects " + disconnects.get());
        say(out, "done");
        for (Contender c : contenders) {
            c.client.close();
        }
        Runtime.getRuntime().halt(0);
    }

    private static void say(BufferedWriter out, String line) throws java.io.IOException {
        out.write(line.replace('\n', ' ') + "\n");
        out.flush();
    }
}
