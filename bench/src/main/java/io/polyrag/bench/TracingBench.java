package io.polyrag.bench;

import com.sun.net.httpserver.HttpServer;
import io.polyrag.eval.BeirDataset;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What tracing costs a search over HTTP: the same server and data, started with traces off and with traces on (every
 * search sampled, exported as OTLP to a receiver in this process that discards them), in interleaved rounds, the
 * order alternating. Each round's p50 with tracing on is divided by the same round's p50 with it off; the median of
 * those ratios, and a bootstrap 95% interval of their mean, are the figures.
 *
 * <p>{@code --paired STARTS}: a restart costs a round its own compilation and memory layout, which moved p50 by ±10%
 * from round to round here, more than the effect measured. Paired, both servers run at once, each on its own copy of
 * the data, and the rounds alternate wrk between them with no restart in between (the order alternating); that is
 * repeated over {@code STARTS} fresh pairs of servers. Besides p50, each run reads the server's CPU time from
 * {@code /proc} before and after: CPU milliseconds per search, on against off, is the work tracing adds, whatever the
 * scheduler did with it.
 *
 * <p>Usage: {@code bench/tracing --data DIR --dataset DIR [--rounds 6] [--seconds 10] [--concurrency 1]
 * [--port 18099] [--sampler always_on] [--sampler-arg 1.0] [--paired STARTS]} (the sampler:
 * {@code OTEL_TRACES_SAMPLER} and its argument; with {@code --paired}, rounds are per start).
 */
final class TracingBench {
    private TracingBench() {
    }

    // style: a benchmark script: options, then each phase in order, as its usage line reads
    public static void main(String[] args) throws Exception {
        Map<String, String> o = HttpBench.options(args);
        if (!o.containsKey("data") || !o.containsKey("dataset")) {
            throw new IllegalArgumentException("bench/tracing --data DIR --dataset DIR [--rounds 6] [--seconds 10] "
                    + "[--concurrency 1] [--port 18099] [--sampler always_on] [--sampler-arg 1.0] [--paired STARTS]");
        }
        Path root = Path.of(o.getOrDefault("root", "."));
        Path data = Path.of(o.get("data"));
        BeirDataset ds = BeirDataset.load(Path.of(o.get("dataset")));
        int rounds = Integer.parseInt(o.getOrDefault("rounds", "6"));
        int seconds = Integer.parseInt(o.getOrDefault("seconds", "10"));
        int connections = Integer.parseInt(o.getOrDefault("concurrency", "1"));
        int port = Integer.parseInt(o.getOrDefault("port", "18099"));
        String sampler = o.getOrDefault("sampler", "always_on");
        String samplerArg = o.getOrDefault("sampler-arg", "1.0");
        List<String> queries = HttpBench.distinct(new ArrayList<>(ds.queries().values()), 12_000);
        Path work = Files.createTempDirectory("polyrag-tracing-bench");
        Path queryFile = work.resolve("queries.txt");
        Files.write(queryFile, queries.stream().map(q -> URLEncoder.encode(q, StandardCharsets.UTF_8)).toList());
        Path lua = work.resolve("search.lua");
        Files.writeString(lua, HttpBench.LUA.replace("QUERIES", queryFile.toString()));

        AtomicLong exports = new AtomicLong();
        AtomicLong bytes = new AtomicLong();
        HttpServer sink = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        sink.createContext("/", exchange -> {
            bytes.addAndGet(exchange.getRequestBody().readAllBytes().length);
            exports.incrementAndGet();
            exchange.getResponseHeaders().add("Content-Type", "application/x-protobuf");
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        });
        sink.start();
        System.out.printf(Locale.ROOT, "polyrag bench/tracing: %s over %s, %d rounds, wrk %d s at concurrency %d, "
                + "%d cores (%s); GET /v1/search, vector + full text, top 10; traces on: sampler %s %s%n%n", ds.name(),
                data, rounds, seconds, connections, Runtime.getRuntime().availableProcessors(), HttpBench.cpu(), sampler,
                samplerArg);
        Map<String, String> onEnv = Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:"
                + sink.getAddress().getPort(), "OTEL_TRACES_SAMPLER", sampler, "OTEL_TRACES_SAMPLER_ARG", samplerArg);
        if (o.containsKey("paired")) {
            try {
                paired(root, data, work, lua, port, connections, seconds, rounds, Integer.parseInt(o.get("paired")),
                        onEnv);
            } finally {
                sink.stop(0);
            }
            System.out.printf(Locale.ROOT, "the receiver got %,d exports, %,d bytes of spans%n", exports.get(),
                    bytes.get());
            return;
        }
        System.out.println("  round  tracing   p50 ms   p99 ms      qps");
        double[][] p50 = new double[rounds][2];
        double[][] qps = new double[rounds][2];
        try {
            for (int r = 0; r < rounds; r++) {
                for (int k = 0; k < 2; k++) {
                    boolean on = (r + k) % 2 == 1;
                    Map<String, String> env = on ? onEnv : Map.of();
                    Process server = HttpBench.serve(root, data, port, env);
                    try {
                        HttpBench.awaitHealth(port);
                        HttpBench.wrk(lua, port, "vector,fulltext", connections, Math.max(10, seconds));
                        Map<String, Double> m = HttpBench.wrk(lua, port, "vector,fulltext", connections, seconds);
                        p50[r][on ? 1 : 0] = m.get("p50");
                        qps[r][on ? 1 : 0] = m.get("qps");
                        System.out.printf(Locale.ROOT, "  %5d  %-7s %8.2f %8.2f %8.1f%n", r + 1, on ? "on" : "off",
                                m.get("p50"), m.get("p99"), m.get("qps"));
                    } finally {
                        server.destroy();
                        server.waitFor();
                    }
                }
            }
        } finally {
            sink.stop(0);
        }
        double[] ratios = new double[rounds];
        for (int r = 0; r < rounds; r++) {
            ratios[r] = p50[r][1] / p50[r][0];
        }
        summary("p50 with tracing on / off", ratios, 1.03);
        System.out.printf(Locale.ROOT, "the receiver got %,d exports, %,d bytes of spans%n", exports.get(), bytes.get());
    }

    /** Prints the per-round ratios, their median, and a bootstrap 95% interval of their mean. */
    private static void summary(String what, double[] ratios, double target) {
        int n = ratios.length;
        double[] sorted = ratios.clone();
        Arrays.sort(sorted);
        double median = n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
        Random random = new Random(42);
        double[] means = new double[10_000];
        for (int b = 0; b < means.length; b++) {
            double sum = 0;
            for (int i = 0; i < n; i++) {
                sum += ratios[random.nextInt(n)];
            }
            means[b] = sum / n;
        }
        Arrays.sort(means);
        System.out.printf(Locale.ROOT, "%n%s, per round: %s%n", what, Arrays.toString(
                Arrays.stream(ratios).map(x -> Math.round(x * 1000) / 1000.0).toArray()));
        System.out.printf(Locale.ROOT, "median %.3f; mean %.3f, bootstrap 95%% interval %.3f to %.3f%s%n", median,
                Arrays.stream(ratios).average().orElse(0), means[250], means[9749],
                target > 0 ? String.format(Locale.ROOT, " (target: at most %.2f)", target) : "");
    }

    /** The paired design (see the class comment): both servers up, wrk alternating between them. */
    // style: the paired run's setup (two servers, wrk, rounds) as its command line gives it
    private static void paired(Path root, Path data, Path work, Path lua, int port, int connections, int seconds,
            int rounds, int starts, Map<String, String> onEnv) throws Exception {
        Path off = work.resolve("data-off");
        Path on = work.resolve("data-on");
        copy(data, off);
        copy(data, on);
        System.out.println("  start  round  tracing   p50 ms   p99 ms      qps   CPU ms/search");
        List<Double> p50Ratios = new ArrayList<>();
        List<Double> cpuRatios = new ArrayList<>();
        double[] cpuSum = new double[2];
        for (int st = 0; st < starts; st++) {
            Process[] servers = {HttpBench.serve(root, off, port, Map.of()),
                HttpBench.serve(root, on, port + 1, onEnv)};
            try {
                for (int k = 0; k < 2; k++) {
                    HttpBench.awaitHealth(port + k);
                }
                for (int k = 0; k < 2; k++) {
                    HttpBench.wrk(lua, port + k, "vector,fulltext", connections, Math.max(10, seconds));
                }
                for (int r = 0; r < rounds; r++) {
                    double[] p50 = new double[2];
                    double[] cpu = new double[2];
                    for (int i = 0; i < 2; i++) {
                        int k = (st + r + i) % 2;
                        long before = cpuMillis(servers[k].pid());
                        Map<String, Double> m = HttpBench.wrk(lua, port + k, "vector,fulltext", connections,
                                seconds);
                        long used = cpuMillis(servers[k].pid()) - before;
                        p50[k] = m.get("p50");
                        cpu[k] = used / Math.max(1.0, m.get("qps") * seconds);
                        cpuSum[k] += cpu[k];
                        System.out.printf(Locale.ROOT, "  %5d  %5d  %-7s %8.2f %8.2f %8.1f %15.2f%n", st + 1, r + 1,
                                k == 1 ? "on" : "off", m.get("p50"), m.get("p99"), m.get("qps"), cpu[k]);
                    }
                    p50Ratios.add(p50[1] / p50[0]);
                    cpuRatios.add(cpu[1] / cpu[0]);
                }
            } finally {
                for (Process p : servers) {
                    p.destroy();
                    p.waitFor();
                }
            }
        }
        summary("p50 with tracing on / off", p50Ratios.stream().mapToDouble(Double::doubleValue).toArray(), 1.03);
        summary("server CPU per search, on / off", cpuRatios.stream().mapToDouble(Double::doubleValue).toArray(), 0);
        int n = starts * rounds;
        System.out.printf(Locale.ROOT, "server CPU per search: %.2f ms off, %.2f ms on (means over %d rounds)%n",
                cpuSum[0] / n, cpuSum[1] / n, n);
    }

    /** The process's CPU time so far, user and system, from {@code /proc/PID/stat} (clock ticks of 10 ms). */
    private static long cpuMillis(long pid) throws IOException {
        String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        // After the command: state is field 3; utime and stime are fields 14 and 15.
        return (Long.parseLong(f[11]) + Long.parseLong(f[12])) * 10;
    }

    private static void copy(Path from, Path to) throws IOException {
        try (var files = Files.walk(from)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                Path target = to.resolve(from.relativize(f).toString());
                if (Files.isDirectory(f)) {
                    Files.createDirectories(target);
                } else if (!f.getFileName().toString().endsWith(".lock")) {
                    Files.copy(f, target);
                }
            }
        }
    }
}
