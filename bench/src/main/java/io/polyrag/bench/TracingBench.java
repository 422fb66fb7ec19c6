package io.polyrag.bench;

import com.sun.net.httpserver.HttpServer;
import io.polyrag.eval.BeirDataset;
import java.net.InetSocketAddress;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
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
 * <p>Usage: {@code bench/tracing --data DIR --dataset DIR [--rounds 6] [--seconds 10] [--concurrency 1]
 * [--port 18099] [--sampler always_on] [--sampler-arg 1.0]} (the sampler: {@code OTEL_TRACES_SAMPLER} and its
 * argument).
 */
final class TracingBench {
    private TracingBench() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> o = HttpBench.options(args);
        if (!o.containsKey("data") || !o.containsKey("dataset")) {
            throw new IllegalArgumentException("bench/tracing --data DIR --dataset DIR [--rounds 6] [--seconds 10] "
                    + "[--concurrency 1] [--port 18099] [--sampler always_on] [--sampler-arg 1.0]");
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
        System.out.println("  round  tracing   p50 ms   p99 ms      qps");
        double[][] p50 = new double[rounds][2];
        double[][] qps = new double[rounds][2];
        try {
            for (int r = 0; r < rounds; r++) {
                for (int k = 0; k < 2; k++) {
                    boolean on = (r + k) % 2 == 1;
                    Map<String, String> env = on ? Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:"
                            + sink.getAddress().getPort(), "OTEL_TRACES_SAMPLER", sampler, "OTEL_TRACES_SAMPLER_ARG",
                            samplerArg) : Map.of();
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
        double[] sorted = ratios.clone();
        java.util.Arrays.sort(sorted);
        double median = rounds % 2 == 1 ? sorted[rounds / 2] : (sorted[rounds / 2 - 1] + sorted[rounds / 2]) / 2;
        Random random = new Random(42);
        double[] means = new double[10_000];
        for (int b = 0; b < means.length; b++) {
            double sum = 0;
            for (int i = 0; i < rounds; i++) {
                sum += ratios[random.nextInt(rounds)];
            }
            means[b] = sum / rounds;
        }
        java.util.Arrays.sort(means);
        System.out.printf(Locale.ROOT, "%np50 with tracing on / off, per round: %s%n", java.util.Arrays.toString(
                java.util.Arrays.stream(ratios).map(x -> Math.round(x * 1000) / 1000.0).toArray()));
        System.out.printf(Locale.ROOT, "median %.3f; mean %.3f, bootstrap 95%% interval %.3f to %.3f (target: at most "
                + "1.03)%n", median, java.util.Arrays.stream(ratios).average().orElse(0), means[250], means[9749]);
        System.out.printf(Locale.ROOT, "the receiver got %,d exports, %,d bytes of spans%n", exports.get(), bytes.get());
    }
}
