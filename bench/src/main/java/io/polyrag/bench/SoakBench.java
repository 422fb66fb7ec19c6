// style(file): one benchmark's whole procedure (load, signals, counts), read top to bottom beside the numbers it prints
package io.polyrag.bench;

import io.polyrag.app.Json;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;

/**
 * A soak of the server as users run it: {@code polyrag serve} (the launcher, a process of its own) on a fresh data
 * directory with a watched folder whose files change, two tenants with a key each, and {@code --concurrency} clients
 * mixing searches, answers, text and file ingests, deletes and listings for {@code --minutes}. A third of the way in
 * the server is killed with SIGKILL and started again; two thirds in it gets SIGTERM and is started again. Counted:
 * requests that failed (a 5xx, a refused connection, a timeout) outside the two restart windows (from the signal
 * to {@code /ready} 200); documents acknowledged (200 for a text, 202 for a file job) and never deleted that a
 * search by their unique word does not find at the end, once every job has finished; {@code polyrag check} after the
 * server stops; the server's heap after a full GC and its RSS just before each signal and at the end, each taken with
 * the load paused until nothing is in flight (what the server keeps, not what it is working on).
 *
 * <p>With {@code --corpus N} the corpus keeps a fixed size, so memory can be compared over time: each tenant has
 * {@code N} text slots (written once before the load starts) and {@code N / 20} file slots, each client owns a share
 * of them; an ingest fills an empty slot of its own or replaces one (same uri, a new version), a delete empties one,
 * a file slot is uploaded again only once its last job has finished. At the end every slot's last marker must be
 * found and a sample of replaced markers must not be.
 *
 * <p>Usage: {@code bench/soak [--minutes 30] [--concurrency 32] [--corpus 0] [--work DIR] [--port 18480]}.
 */
public final class SoakBench {
    private static final String LETTERS = "abcdefghijklmnopqrstuvwxyz";
    private static final String[] WORDS = ("levain dough starter flour water salt crumb crust oven proof knead "
            + "comet tail nucleus orbit perihelion lighthouse lens keeper beacon granite harbour borrow checker "
            + "lifetime reference owner scope").split(" ");

    private final Path root;
    private final Path work;
    private final int port;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final Map<String, String> keys = new HashMap<>();
    /** Acknowledged and not deleted: marker word to (tenant, document id or job id). */
    private final Map<String, String[]> acknowledged = new ConcurrentHashMap<>();
    private final ConcurrentLinkedQueue<String> jobs = new ConcurrentLinkedQueue<>();
    private final AtomicLong requests = new AtomicLong();
    private final AtomicLong errorsOutside = new AtomicLong();
    private final AtomicLong errorsInside = new AtomicLong();
    private final ConcurrentLinkedQueue<String> errorSamples = new ConcurrentLinkedQueue<>();
    private volatile boolean restarting;
    /** Memory is being sampled: clients and the folder changer wait. */
    private volatile boolean paused;
    /** Clients inside an operation. */
    private final AtomicInteger busy = new AtomicInteger();
    private volatile Process server;
    /** Text slots per tenant in the fixed-size mode; 0: every ingest adds a document. */
    private final int corpus;
    private volatile int clientsCount;
    /** Fixed-size mode: slot ("tenant/text-k" or "tenant/file-k") to its current marker, absent while empty. */
    private final Map<String, String> slots = new ConcurrentHashMap<>();
    /** Fixed-size mode: file slot to the job that last wrote it. */
    private final Map<String, String> slotJobs = new ConcurrentHashMap<>();
    /** Markers replaced by a later version of their document: (tenant, marker). */
    private final ConcurrentLinkedQueue<String[]> replaced = new ConcurrentLinkedQueue<>();

    private SoakBench(Path root, Path work, int port, int corpus) {
        this.root = root;
        this.work = work;
        this.port = port;
        this.corpus = corpus;
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> o = new HashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            o.put(args[i].replaceFirst("^--", ""), args[i + 1]);
        }
        Path root = Path.of(o.getOrDefault("root", ".")).toAbsolutePath();
        Path work = o.containsKey("work") ? Path.of(o.get("work")) : Files.createTempDirectory("polyrag-soak");
        double minutes = Double.parseDouble(o.getOrDefault("minutes", "30"));
        int concurrency = Integer.parseInt(o.getOrDefault("concurrency", "32"));
        new SoakBench(root, work, Integer.parseInt(o.getOrDefault("port", "18480")),
                Integer.parseInt(o.getOrDefault("corpus", "0"))).run(minutes, concurrency);
    }

    // style: the soak's loop: writers, searches, the kill windows and the final check, in the order they happen
    private void run(double minutes, int concurrency) throws Exception {
        Path watched = work.resolve("watched");
        Files.createDirectories(watched);
        for (int i = 0; i < 20; i++) {
            Files.writeString(watched.resolve("note-" + i + ".md"), "# Note " + i + "\n\n" + sentence(new Random(i)));
        }
        for (String tenant : List.of("acme", "globex")) {
            Process p = cli("keys", "create", tenant, "--json").redirectOutput(ProcessBuilder.Redirect.PIPE).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (p.waitFor() != 0) {
                throw new IllegalStateException("keys create " + tenant + " failed: " + out);
            }
            keys.put(tenant, Json.MAPPER.readTree(out).get("key").asString());
        }
        System.out.printf(Locale.ROOT, "polyrag soak: %.0f minutes, concurrency %d, %d cores, %s, work dir %s%n",
                minutes, concurrency, Runtime.getRuntime().availableProcessors(), corpus == 0 ? "a growing corpus"
                        : "a fixed corpus of " + corpus + " texts and " + corpus / 20 + " files per tenant", work);
        clientsCount = concurrency;
        start();
        if (corpus > 0) {
            long fill = System.nanoTime();
            List<Thread> fillers = new ArrayList<>();
            for (int c = 0; c < concurrency; c++) {
                int client = c;
                Random rnd = new Random(-1 - c);
                fillers.add(Thread.ofVirtual().start(() -> {
                    for (String tenant : List.of("acme", "globex")) {
                        for (int k = client; k < corpus; k += concurrency) {
                            writeText(tenant, "text-" + k, rnd);
                        }
                    }
                }));
            }
            for (Thread t : fillers) {
                t.join();
            }
            System.out.printf(Locale.ROOT, "filled %,d text slots in %.0f s%n", slots.size(),
                    (System.nanoTime() - fill) / 1e9);
        }
        long t0 = System.nanoTime();
        long end = t0 + (long) (minutes * 60e9);
        List<Thread> clients = new ArrayList<>();
        for (int c = 0; c < concurrency; c++) {
            int seed = c;
            clients.add(Thread.ofVirtual().start(() -> client(seed, new Random(seed), end)));
        }
        Thread changer = Thread.ofVirtual().start(() -> change(watched, end));
        List<String> memory = new ArrayList<>();
        List<String> windows = new ArrayList<>();
        sleepUntil(t0 + (long) (minutes * 60e9 / 3));
        memory.add(quiet("before the kill -9"));
        windows.add(restart(true));
        sleepUntil(t0 + (long) (minutes * 60e9 * 2 / 3));
        memory.add(quiet("before the SIGTERM"));
        windows.add(restart(false));
        for (Thread t : clients) {
            t.join();
        }
        changer.join();
        memory.add(quiet("at the end"));
        // Every acknowledged job finishes (resumed after the restarts), then every acknowledged document is found.
        long drain = System.nanoTime();
        for (String job : jobs) {
            waitJob(job);
        }
        double drained = (System.nanoTime() - drain) / 1e9;
        int missing = 0;
        List<String> missingSamples = new ArrayList<>();
        for (var e : acknowledged.entrySet()) {
            if (!found(e.getValue()[0], e.getKey())) {
                missing++;
                if (missingSamples.size() < 5) {
                    missingSamples.add("missing " + e.getKey() + " (" + e.getValue()[0] + ", " + e.getValue()[1] + ")");
                }
            }
        }
        int stale = 0;
        int staleChecked = 0;
        for (String[] r : replaced) {
            if (staleChecked++ == 500) {
                break;
            }
            if (found(r[0], r[1])) {
                stale++;
                if (missingSamples.size() < 10) {
                    missingSamples.add("still found after its replacement or delete: " + r[1] + " (" + r[0] + ")");
                }
            }
        }
        server.destroy();
        server.waitFor(60, TimeUnit.SECONDS);
        Process check = cli("check").redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.PIPE).start();
        String checkOut = new String(check.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        int checkRc = check.waitFor();

        System.out.printf(Locale.ROOT, "%nrequests: %,d; errors outside the restart windows: %d (target 0); inside "
                + "them: %d%n", requests.get(), errorsOutside.get(), errorsInside.get());
        errorSamples.stream().limit(5).forEach(s -> System.out.println("  " + s));
        windows.forEach(w -> System.out.println("restart window: " + w));
        System.out.printf(Locale.ROOT, "upload jobs: %,d, the last of them finished %.0f s after the load stopped%n",
                jobs.size(), drained);
        System.out.printf(Locale.ROOT, "acknowledged documents: %,d; not searchable at the end: %d (target 0)%n",
                acknowledged.size(), missing);
        if (corpus > 0) {
            System.out.printf(Locale.ROOT, "replaced or deleted markers: %,d; of the first %d, still found: %d "
                    + "(target 0)%n", replaced.size(), Math.min(500, replaced.size()), stale);
        }
        missingSamples.forEach(s -> System.out.println("  " + s));
        System.out.println("polyrag check: exit " + checkRc + (checkRc == 0 ? " (consistent)" : "") + "\n"
                + checkOut.strip().lines().map(l -> "  " + l).reduce("", (a, b) -> a + b + "\n").stripTrailing());
        memory.forEach(m -> System.out.println("memory " + m));
    }

    /** One client: operations by weight, each with one of the two tenants' keys, until {@code end}. */
    private void client(int client, Random rnd, long end) {
        while (System.nanoTime() < end) {
            if (!enter()) {
                continue;
            }
            String tenant = rnd.nextBoolean() ? "acme" : "globex";
            int op = rnd.nextInt(100);
            try {
                if (corpus > 0 && op >= 50 && op < 88) {
                    fixedCorpusOp(tenant, op, rnd, client);
                } else if (op < 40) {
                    call(tenant, "GET", "/v1/search?q=" + enc(WORDS[rnd.nextInt(WORDS.length)] + " "
                            + WORDS[rnd.nextInt(WORDS.length)]) + "&top_k=10", null, null);
                } else if (op < 50) {
                    call(tenant, "POST", "/v1/query", "application/json", ("{\"query\": \"What about the "
                            + WORDS[rnd.nextInt(WORDS.length)] + "?\"}").getBytes(StandardCharsets.UTF_8));
                } else if (op < 70) {
                    String marker = marker(rnd);
                    var r = call(tenant, "POST", "/v1/ingest/text", "application/json", Json.MAPPER
                            .writeValueAsBytes(Map.of("text", sentence(rnd) + " The code word is " + marker + ".",
                                    "uri", "soak://" + marker)));
                    if (r != null && r.statusCode() == 200) {
                        acknowledged.put(marker, new String[] {tenant, Json.MAPPER.readTree(r.body())
                                .get("document_id").asString()});
                    }
                } else if (op < 78) {
                    String marker = marker(rnd);
                    String job = upload(tenant, marker, marker, rnd);
                    if (job != null) {
                        acknowledged.put(marker, new String[] {tenant, "job " + job});
                    }
                } else if (op < 88) {
                    var mine = acknowledged.entrySet().stream().filter(e -> e.getValue()[0].equals(tenant)
                            && !e.getValue()[1].startsWith("job ")).findAny();
                    if (mine.isPresent() && acknowledged.remove(mine.get().getKey()) != null) {
                        var r = call(tenant, "DELETE", "/v1/documents/" + mine.get().getValue()[1], null, null);
                        if (r == null || r.statusCode() / 100 != 2) {
                            // Not acknowledged: it may or may not be gone; no longer counted either way.
                            continue;
                        }
                    }
                } else {
                    call(tenant, "GET", "/v1/documents?limit=20", null, null);
                }
            } catch (RuntimeException e) {
                error(tenant + " op " + op + ": " + e.getMessage());
            } finally {
                busy.decrementAndGet();
            }
        }
    }

    /**
     * Whether a client may start an operation now (counted busy until it ends); false (after a short wait) while the
     * load is paused for a memory sample.
     */
    private boolean enter() {
        busy.incrementAndGet();
        if (!paused) {
            return true;
        }
        busy.decrementAndGet();
        try {
            Thread.sleep(50);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return false;
    }

    /**
     * A memory sample of retained state, not of work in flight: the load pauses (every client's request answered,
     * the watched folder left alone, in the fixed-size mode every file slot's last job finished), then the heap
     * after a full GC and RSS are taken, and the load resumes.
     */
    private String quiet(String when) throws Exception {
        long t = System.nanoTime();
        paused = true;
        while (busy.get() > 0) {
            Thread.sleep(20);
        }
        if (corpus > 0) {
            for (var e : slotJobs.entrySet()) {
                waitJob(e.getKey().substring(0, e.getKey().indexOf('/')) + " " + e.getValue());
            }
        }
        double quiet = (System.nanoTime() - t) / 1e9;
        String sample = memory(when);
        paused = false;
        return String.format(Locale.ROOT, "%s (load paused %.0f s before it)", sample, quiet);
    }

    /**
     * The fixed-size mode's writes: a text into an empty slot of this client's or over one of them (a new version),
     * a file into one of its file slots whose last job has finished, or a delete that empties a text slot.
     */
    private void fixedCorpusOp(String tenant, int op, Random rnd, int client) {
        int concurrency = Math.max(1, clientsCount);
        if (op < 70) {
            List<Integer> mine = new ArrayList<>();
            for (int k = client; k < corpus; k += concurrency) {
                mine.add(k);
            }
            int k = mine.stream().filter(i -> !slots.containsKey(tenant + "/text-" + i)).findFirst()
                    .orElse(mine.get(rnd.nextInt(mine.size())));
            writeText(tenant, "text-" + k, rnd);
        } else if (op < 78) {
            int files = Math.max(1, corpus / 20);
            if (client >= files) {
                writeText(tenant, "text-" + client, rnd);
                return;
            }
            List<Integer> mine = new ArrayList<>();
            for (int k = client; k < files; k += concurrency) {
                mine.add(k);
            }
            String slot = tenant + "/file-" + mine.get(rnd.nextInt(mine.size()));
            String last = slotJobs.get(slot);
            if (last != null) {
                var r = call(tenant, "GET", "/v1/jobs/" + last, null, null);
                if (r == null || r.statusCode() != 200 || List.of("queued", "running").contains(
                        Json.MAPPER.readTree(r.body()).get("status").asString())) {
                    return; // its last version is still on its way: replacing it now could land out of order
                }
            }
            String marker = marker(rnd);
            String job = upload(tenant, slot.substring(slot.indexOf('/') + 1), marker, rnd);
            if (job != null) {
                slotJobs.put(slot, job);
                acknowledge(tenant, slot, marker, "job " + job);
            } else {
                forget(slot);
            }
        } else {
            List<Integer> filled = new ArrayList<>();
            for (int k = client; k < corpus; k += concurrency) {
                if (slots.containsKey(tenant + "/text-" + k)) {
                    filled.add(k);
                }
            }
            if (filled.isEmpty()) {
                return;
            }
            String slot = tenant + "/text-" + filled.get(rnd.nextInt(filled.size()));
            String marker = slots.remove(slot);
            String[] doc = acknowledged.remove(marker);
            var r = call(tenant, "DELETE", "/v1/documents/" + doc[1], null, null);
            if (r != null && r.statusCode() / 100 == 2) {
                replaced.add(new String[] {tenant, marker});
            } // else: not acknowledged, it may or may not be gone; the slot is empty for us and written again later
        }
    }

    /** Uploads {@code name}.md holding {@code marker} (a job): its id once acknowledged with 202, else null. */
    private String upload(String tenant, String name, String marker, Random rnd) {
        String boundary = "soak" + marker;
        String body = "--" + boundary + "\r\nContent-Disposition: form-data; name=\"files\"; filename=\"" + name
                + ".md\"\r\nContent-Type: text/markdown\r\n\r\n# " + name + "\n\n" + sentence(rnd) + " Filed under "
                + marker + ".\r\n--" + boundary + "--\r\n";
        var r = call(tenant, "POST", "/v1/ingest/files", "multipart/form-data; boundary=" + boundary,
                body.getBytes(StandardCharsets.UTF_8));
        if (r == null || r.statusCode() != 202) {
            return null;
        }
        String job = Json.MAPPER.readTree(r.body()).get("job_id").asString();
        jobs.add(tenant + " " + job);
        return job;
    }

    /** One text into a slot (uri {@code soak://slot}): a new document, or a new version of the slot's document. */
    private void writeText(String tenant, String slotName, Random rnd) {
        String slot = tenant + "/" + slotName;
        String marker = marker(rnd);
        try {
            var r = call(tenant, "POST", "/v1/ingest/text", "application/json", Json.MAPPER.writeValueAsBytes(
                    Map.of("text", sentence(rnd) + " The code word is " + marker + ".", "uri", "soak://" + slot)));
            if (r != null && r.statusCode() == 200) {
                acknowledge(tenant, slot, marker, Json.MAPPER.readTree(r.body()).get("document_id").asString());
            } else {
                forget(slot);
            }
        } catch (RuntimeException e) {
            error(tenant + " text into " + slot + ": " + e.getMessage());
        }
    }

    /**
     * A write to the slot that was not acknowledged may still have happened (a restart cut its answer): the slot's
     * last marker is counted neither way until the slot is written again.
     */
    private void forget(String slot) {
        String before = slots.remove(slot);
        if (before != null) {
            acknowledged.remove(before);
        }
    }

    private void acknowledge(String tenant, String slot, String marker, String documentOrJob) {
        String before = slots.put(slot, marker);
        if (before != null && acknowledged.remove(before) != null) {
            replaced.add(new String[] {tenant, before});
        }
        acknowledged.put(marker, new String[] {tenant, documentOrJob});
    }

    /** A request; a 5xx, a timeout or a refused connection counts as an error (in or outside a restart window). */
    private HttpResponse<String> call(String tenant, String method, String path, String type, byte[] body) {
        requests.incrementAndGet();
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(60)).header("Authorization", "Bearer " + keys.get(tenant));
        if (type != null) {
            b.header("Content-Type", type);
        }
        b.method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofByteArray(body));
        try {
            HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() >= 500) {
                error(method + " " + path.replaceFirst("\\?.*", "") + " answered " + r.statusCode() + ": "
                        + r.body().substring(0, Math.min(200, r.body().length())));
                return null;
            }
            return r;
        } catch (IOException e) {
            error(method + " " + path.replaceFirst("\\?.*", "") + ": " + e);
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    private void error(String what) {
        if (restarting) {
            errorsInside.incrementAndGet();
            try {
                Thread.sleep(100); // the server is away: no tight loop of refused connections
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        } else {
            errorsOutside.incrementAndGet();
            errorSamples.add(what);
        }
    }

    /** The watched folder's files change every few seconds: edited, added, removed. */
    private void change(Path dir, long end) {
        Random rnd = new Random(7);
        for (int n = 0; System.nanoTime() < end; n++) {
            try {
                while (paused) {
                    Thread.sleep(50);
                }
                Path f = dir.resolve("note-" + rnd.nextInt(30) + ".md");
                if (rnd.nextInt(5) == 0) {
                    Files.deleteIfExists(f);
                } else {
                    Files.writeString(f, "# Note, edit " + n + "\n\n" + sentence(rnd));
                }
                Thread.sleep(3_000);
            } catch (IOException e) {
                System.err.println("changing the watched folder: " + e);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** SIGKILL or SIGTERM, then a new server; the window from the signal to /ready 200. */
    private String restart(boolean kill) throws Exception {
        restarting = true;
        long t = System.nanoTime();
        if (kill) {
            server.destroyForcibly();
        } else {
            server.destroy();
        }
        boolean exited = server.waitFor(120, TimeUnit.SECONDS);
        int rc = exited ? server.exitValue() : -1;
        start();
        restarting = false;
        return String.format(Locale.ROOT, "%s: exit %d, ready again after %.1f s", kill ? "kill -9" : "SIGTERM", rc,
                (System.nanoTime() - t) / 1e9);
    }

    private void start() throws Exception {
        ProcessBuilder pb = cli("serve", "--port", Integer.toString(port), "--watch", work.resolve("watched")
                .toString());
        pb.redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(work.resolve("server.log")
                .toFile()));
        server = pb.start();
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
        while (System.nanoTime() < deadline) {
            try {
                var r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/ready"))
                        .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() == 200) {
                    return;
                }
            } catch (IOException e) {
                // not listening yet
            }
            if (!server.isAlive()) {
                throw new IllegalStateException("the server exited with " + server.exitValue() + ": see "
                        + work.resolve("server.log"));
            }
            Thread.sleep(200);
        }
        throw new IllegalStateException("the server was not ready within 5 minutes: see " + work.resolve("server.log"));
    }

    private ProcessBuilder cli(String... args) {
        List<String> cmd = new ArrayList<>(List.of(root.resolve("polyrag").toString()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(root.toFile());
        pb.environment().put("POLYRAG_DATA_DIR", work.resolve("data").toString());
        return pb;
    }

    /** Heap after a full GC (jcmd) and RSS of the server process. */
    private String memory(String when) {
        long pid = server.pid();
        try {
            run(List.of(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(), Long.toString(pid),
                    "GC.run"));
            String heap = run(List.of(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
                    Long.toString(pid), "GC.heap_info"));
            Matcher m = Pattern.compile("(?:committed|total) (\\d+)K, used (\\d+)K")
                    .matcher(heap);
            boolean found = m.find();
            long committedKb = found ? Long.parseLong(m.group(1)) : -1;
            long usedKb = found ? Long.parseLong(m.group(2)) : -1;
            // With -XX:NativeMemoryTracking=summary in JAVA_OPTS: what the JVM itself has committed (heap, code,
            // threads, metadata, its own mallocs); RSS above that is native libraries' memory (the model runtime).
            String nmt = run(List.of(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
                    Long.toString(pid), "VM.native_memory", "summary", "scale=MB"));
            Matcher t = Pattern.compile("Total: reserved=\\d+MB, committed=(\\d+)MB")
                    .matcher(nmt);
            String jvm = t.find() ? String.format(Locale.ROOT, ", JVM committed (NMT) %,d MB", Long.parseLong(
                    t.group(1))) : "";
            long rssKb = Files.readAllLines(Path.of("/proc/" + pid + "/status")).stream()
                    .filter(l -> l.startsWith("VmRSS:")).mapToLong(l -> Long.parseLong(l.replaceAll("\\D", "")))
                    .findFirst().orElse(-1);
            Path catalog = work.resolve("data").resolve("catalog").resolve("polyrag.mv.db");
            long catalogMb = Files.exists(catalog) ? Files.size(catalog) >> 20 : -1;
            return String.format(Locale.ROOT, "%-20s heap after full GC %,d MB (committed %,d MB), RSS %,d MB%s, "
                    + "catalog file %,d MB", when, usedKb >> 10, committedKb >> 10, rssKb >> 10, jvm, catalogMb);
        } catch (IOException | InterruptedException e) {
            return when + ": " + e;
        }
    }

    private static String run(List<String> cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor();
        return out;
    }

    private void waitJob(String tenantAndJob) throws Exception {
        String[] tj = tenantAndJob.split(" ");
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(10);
        while (System.nanoTime() < deadline) {
            var r = call(tj[0], "GET", "/v1/jobs/" + tj[1], null, null);
            if (r != null && r.statusCode() == 200) {
                JsonNode j = Json.MAPPER.readTree(r.body());
                String status = j.get("status").asString();
                if (!status.equals("queued") && !status.equals("running")) {
                    return;
                }
            } else if (r != null && r.statusCode() == 404) {
                System.out.println("  job " + tj[1] + " of " + tj[0] + " is gone (acknowledged with 202)");
                return;
            }
            Thread.sleep(500);
        }
    }

    private boolean found(String tenant, String marker) {
        var r = call(tenant, "GET", "/v1/search?q=" + marker + "&top_k=5&modalities=fulltext", null, null);
        if (r == null || r.statusCode() != 200) {
            return false;
        }
        // In a hit's text, not anywhere in the body: the response repeats the query.
        for (JsonNode hit : Json.MAPPER.readTree(r.body()).get("hits")) {
            if (hit.get("text").asString().contains(marker)) {
                return true;
            }
        }
        return false;
    }

    private static String marker(Random rnd) {
        StringBuilder s = new StringBuilder("sk");
        for (int i = 0; i < 10; i++) {
            s.append(LETTERS.charAt(rnd.nextInt(26)));
        }
        return s.toString();
    }

    private static String sentence(Random rnd) {
        StringBuilder s = new StringBuilder("The");
        for (int i = 0; i < 12 + rnd.nextInt(20); i++) {
            s.append(' ').append(WORDS[rnd.nextInt(WORDS.length)]);
        }
        return s.append('.').toString();
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    private static void sleepUntil(long nanoTime) throws InterruptedException {
        long left = nanoTime - System.nanoTime();
        if (left > 0) {
            TimeUnit.NANOSECONDS.sleep(left);
        }
    }
}
