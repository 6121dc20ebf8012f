import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The line protocol that the Java peers speak with package peers (peers.go).
 *
 * <pre>
 * stdin:  acquire ID VARIANT PATH | release ID | quit
 * stdout: session ID HEXSESSION | acquired ID | released ID | error ID MESSAGE
 * </pre>
 *
 * Each contender lives on its own thread with its own ZooKeeper session, from
 * connect to close, because Curator's locks must be released by the thread
 * that acquired them. EOF on stdin ends the process, so a test binary that
 * dies leaves no JVM behind.
 */
final class Protocol {
    /** A blocking step of a lock client, such as acquire or release. */
    interface Step {
        void run() throws Exception;
    }

    /** One contender: a lock recipe bound to its own, connected client. */
    record Contender(long session, Step acquire, Step release, Runnable close, CountDownLatch revoked) {
        /** A contender that only releases when asked to. */
        Contender(long session, Step acquire, Step release, Runnable close) {
            this(session, acquire, release, close, null);
        }
    }

    /** Opens a connected client for contender ID, of VARIANT on PATH. */
    interface Opener {
        Contender open(String connect, String id, String variant, String path) throws Exception;
    }

    private final String connect;
    private final Opener opener;
    private final Map<String, Slot> slots = new ConcurrentHashMap<>();

    private Protocol(String connect, Opener opener) {
        this.connect = connect;
        this.opener = opener;
    }

    /** Serves stdin until quit or EOF, then closes every session and exits. */
    static void serve(String[] args, Opener opener) throws IOException {
        if (args.length != 1) {
            System.err.println("usage: PEER CONNECT-STRING");
            System.exit(2);
        }
        new Protocol(args[0], opener).loop();
        Runtime.getRuntime().halt(0);
    }

    static synchronized void say(String... words) {
        System.out.println(String.join(" ", words).replace('\n', ' '));
        System.out.flush();
    }

    private void loop() throws IOException {
        var in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line; (line = in.readLine()) != null; ) {
            // A path may hold spaces (NiFi's "/nifi/leaders/Cluster Coordinator"):
            // it is the rest of the line.
            String[] w = line.trim().split("\\s+", 4);
            if (w[0].equals("acquire") && w.length == 4) {
                var slot = new Slot(w[1], w[2], w[3]);
                if (slots.putIfAbsent(w[1], slot) != null) {
                    say("error", w[1], "contender already exists");
                    continue;
                }
                slot.thread.start();
            } else if (w[0].equals("release") && w.length == 2) {
                Slot slot = slots.remove(w[1]);
                if (slot == null) {
                    say("error", w[1], "no such contender");
                } else {
                    slot.release();
                }
            } else if (w[0].equals("quit")) {
                break;
            } else if (!line.isBlank()) {
                say("error", "-", "bad command: " + line);
            }
        }
        for (Slot slot : slots.values()) {
            slot.closeNow();
        }
    }

    /** A contender's thread and what has been asked of it. */
    private final class Slot {
        final String id, variant, path;
        final Thread thread = new Thread(this::run);
        final CountDownLatch releaseRequested = new CountDownLatch(1);
        private boolean held, releasing; // guarded by this
        private Contender contender; // guarded by this

        Slot(String id, String variant, String path) {
            this.id = id;
            this.variant = variant;
            this.path = path;
            thread.setDaemon(true);
        }

        /** Asks the thread to release; interrupts it if it does not hold yet. */
        synchronized void release() {
            releasing = true;
            releaseRequested.countDown();
            if (!held) {
                thread.interrupt();
            }
        }

        /** Closes the session from the protocol thread, on quit. */
        synchronized void closeNow() {
            if (contender != null) {
                contender.close().run();
            }
        }

        private void run() {
            Contender c = null;
            try {
                c = opener.open(connect, id, variant, path);
                synchronized (this) {
                    contender = c;
                }
                say("session", id, Long.toHexString(c.session()));
                c.acquire().run();
                synchronized (this) {
                    held = true;
                    Thread.interrupted(); // a release that raced with acquire
                }
                say("acquired", id);
                if (c.revoked() == null) {
                    releaseRequested.await();
                } else {
                    // A revocable lock is released by the thread that holds
                    // it, when asked to or when its client hears a
                    // revocation request.
                    while (!releaseRequested.await(20, TimeUnit.MILLISECONDS) && c.revoked().getCount() > 0) {
                    }
                    releaseRequested.countDown();
                }
                c.release().run();
            } catch (Exception e) {
                synchronized (this) {
                    if (!releasing) {
                        slots.remove(id, this);
                        say("error", id, e.toString());
                    }
                }
            } finally {
                if (c != null) {
                    c.close().run();
                }
            }
            if (releaseRequested.getCount() == 0) {
                say("released", id);
            }
        }
    }
}
