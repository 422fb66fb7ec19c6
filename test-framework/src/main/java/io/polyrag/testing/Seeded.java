package io.polyrag.testing;

import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestWatcher;

/**
 * Seeded randomness for tests: the seed comes from {@code -Dtests.seed=…} or is drawn once per run, and is printed
 * when a test fails so the failure can be replayed. Register with {@code @RegisterExtension}.
 */
public final class Seeded implements TestWatcher {
    private static final long RUN_SEED = Long.getLong("tests.seed", System.nanoTime());

    public long seed() {
        return RUN_SEED;
    }

    /** A generator for one purpose; the same seed and salt always give the same sequence. */
    public Random random(String salt) {
        return new Random(RUN_SEED ^ salt.hashCode());
    }

    @Override
    public void testFailed(ExtensionContext context, Throwable cause) {
        System.err.println("[seeded] " + context.getDisplayName() + " failed; replay with -Dtests.seed=" + RUN_SEED);
    }

    @Override
    public void testAborted(ExtensionContext context, Throwable cause) {
        // nothing to replay
    }

    @Override
    public void testDisabled(ExtensionContext context, Optional<String> reason) {
        // nothing to replay
    }

    /** A random unit vector. */
    public static float[] unitVector(Random random, int dimension) {
        float[] v = new float[dimension];
        double norm = 0;
        for (int i = 0; i < dimension; i++) {
            v[i] = (float) random.nextGaussian();
            norm += v[i] * v[i];
        }
        float inv = (float) (1 / Math.sqrt(norm));
        for (int i = 0; i < dimension; i++) {
            v[i] *= inv;
        }
        return v;
    }

    public static double cosine(float[] a, float[] b) {
        double dot = 0;
        double na = 0;
        double nb = 0;
        for (int i = 0; i < a.length; i++) {
            dot += a[i] * b[i];
            na += a[i] * a[i];
            nb += b[i] * b[i];
        }
        return dot / Math.sqrt(na * nb);
    }
}
