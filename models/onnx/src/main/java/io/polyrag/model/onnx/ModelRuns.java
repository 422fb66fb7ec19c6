package io.polyrag.model.onnx;

import io.polyrag.core.PolyragException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/** Model runs spread over a pool of threads, one run per input, results in input order. */
final class ModelRuns {
    private ModelRuns() {
    }

    /** A fixed pool of daemon threads named {@code polyrag-<name>-N}. */
    static ExecutorService pool(int threads, String name) {
        AtomicInteger n = new AtomicInteger();
        return Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "polyrag-" + name + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * {@code run} applied to every input on {@code pool}, in input order. The first failure cancels the runs not yet
     * done and is rethrown as it was (a runtime exception) or wrapped, saying {@code what} failed.
     */
    static <T, R> List<R> map(ExecutorService pool, List<T> inputs, Function<T, R> run, String what) {
        List<Future<R>> futures = new ArrayList<>(inputs.size());
        for (T input : inputs) {
            futures.add(pool.submit(() -> run.apply(input)));
        }
        List<R> out = new ArrayList<>(inputs.size());
        try {
            for (Future<R> f : futures) {
                out.add(f.get());
            }
        } catch (InterruptedException e) {
            futures.forEach(f -> f.cancel(true));
            Thread.currentThread().interrupt();
            throw new PolyragException("interrupted while " + what, e);
        } catch (ExecutionException e) {
            futures.forEach(f -> f.cancel(true));
            throw e.getCause() instanceof RuntimeException re ? re
                    : new PolyragException(what + " failed: " + e.getCause().getMessage(), e.getCause());
        }
        return out;
    }
}
