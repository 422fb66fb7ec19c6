package io.polyrag.bench;

import java.io.IOException;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.function.LongSupplier;
import java.util.stream.Stream;

/**
 * Warms a JVM until its JIT has settled, not for a fixed time. A search through polyrag runs far more code than the
 * floor's few library calls (the HTTP server, the catalog's SQL, fusion, dedup, JSON), and its compilers were measured
 * still busy 40 s into a load (a fifth of a core, the p50 still falling: 6.5 ms at 20 s, 5.3 ms from 80 s on), long
 * after the floor had settled. A comparison after a fixed short warm-up measured the JIT, not the search; warming
 * each side until its compilers are quiet compares what a long-running server does.
 */
final class Warmth {
    /** Quiet: the compilers took less than this share of one core over the last pass. */
    static final double QUIET = 0.02;

    private Warmth() {
    }

    /**
     * Repeats {@code pass} (at least {@code minPasses} times) until the compilers of the JVM {@code compilerMs}
     * reads took under {@link #QUIET} of a core during one, or {@code capSeconds} have gone by; prints one line.
     * Where the compilers' time cannot be read (-1: not Linux, or a JVM that does not count it), the minimum passes
     * are the whole warm-up, as a fixed warm-up was.
     */
    static void untilQuiet(String what, Runnable pass, LongSupplier compilerMs, int minPasses, int capSeconds) {
        long start = System.nanoTime();
        int passes = 0;
        double share = Double.NaN;
        while (true) {
            long c0 = compilerMs.getAsLong();
            long t0 = System.nanoTime();
            pass.run();
            passes++;
            double wallMs = (System.nanoTime() - t0) / 1e6;
            long c1 = compilerMs.getAsLong();
            share = c0 < 0 || c1 < 0 ? Double.NaN : (c1 - c0) / wallMs;
            boolean quiet = Double.isNaN(share) || share < QUIET;
            if (passes >= minPasses && (quiet || (System.nanoTime() - start) / 1e9 > capSeconds)) {
                break;
            }
        }
        System.out.printf(Locale.ROOT, "  warm-up of %s: %d passes, %.0f s, compilers at %s of a core in the last%n",
                what, passes, (System.nanoTime() - start) / 1e9, Double.isNaN(share) ? "(unknown)"
                        : String.format(Locale.ROOT, "%.1f%%", 100 * share));
    }

    /** This JVM's compilers' time so far, in ms; -1 where the JVM does not measure it. */
    static long thisJvm() {
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        return jit != null && jit.isCompilationTimeMonitoringSupported() ? jit.getTotalCompilationTime() : -1;
    }

    /**
     * The CPU time, in ms, of the compiler threads of process {@code pid} (HotSpot's "C1/C2 CompilerThread"s, read
     * from Linux's /proc); -1 where that cannot be read.
     */
    static long process(long pid) {
        Path tasks = Path.of("/proc", Long.toString(pid), "task");
        long ticks = 0;
        try (Stream<Path> threads = Files.list(tasks)) {
            for (Path t : threads.toList()) {
                try {
                    String name = Files.readString(t.resolve("comm"));
                    if (!name.startsWith("C1 Compiler") && !name.startsWith("C2 Compiler")) {
                        continue;
                    }
                    String stat = Files.readString(t.resolve("stat"));
                    // Fields after the command's closing parenthesis: state is 3rd, utime 14th, stime 15th.
                    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                    ticks += Long.parseLong(f[11]) + Long.parseLong(f[12]);
                } catch (IOException | RuntimeException e) {
                    // a thread that ended while read: its time is gone from the sum either way
                }
            }
        } catch (IOException e) {
            return -1;
        }
        return ticks * 10; // USER_HZ is 100 on Linux
    }
}
