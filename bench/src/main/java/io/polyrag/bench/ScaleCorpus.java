package io.polyrag.bench;

import io.polyrag.core.model.Chunk;
import io.polyrag.core.model.SourceItem;
import io.polyrag.core.port.Embedder;
import io.polyrag.eval.BeirDataset;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A corpus of any size made deterministically from a real one, for benchmarks at 10k, 100k and 1M chunks without
 * running the embedding model a million times.
 *
 * <p>The real corpus is cut into <i>base passages</i> of at most {@value #PASSAGE_WORDS} words on sentence boundaries,
 * so that each generated document is one chunk. Generated document {@code i} is base passage {@code i} itself while
 * {@code i} is below the number of base passages; after that it splices two of them: a run of a share α (0.3–0.7,
 * seeded by {@code i}) of passage {@code p = i mod P}'s words, then a run of the rest's length from a random passage
 * {@code q}, under {@code p}'s title. Word statistics therefore stay those of real text (no document is a near-duplicate of another:
 * their word overlap stays under the dedup threshold), and its vector is the same mixture of the two passages' real
 * vectors, {@code α·v(p) + (1 − α)·v(q)} plus a little seeded noise, normalised: an approximation of what the model
 * would give the spliced text (the model's mean pooling is close to linear in the tokens), with the real vectors'
 * distribution and cluster structure. The title carries the document's number ({@code #g123}), which is how the
 * {@link ReplayEmbedderProvider replaying embedder} finds the vector of a text the pipeline hands it.
 */
final class ScaleCorpus {
    static final int PASSAGE_WORDS = 120;
    /** The mark ends the title, which is the first line of the text the pipeline embeds. */
    private static final Pattern MARK = Pattern.compile("#g(\\d+)(?:\\n|$)");
    private static final int MIN_PASSAGE_WORDS = 8;
    private static final double NOISE = 0.08;

    record Passage(String title, String[] words) {
        String text() {
            return String.join(" ", words);
        }
    }

    private final List<Passage> passages;
    private final float[][] vectors;
    private final long seed;

    private ScaleCorpus(List<Passage> passages, float[][] vectors, long seed) {
        this.passages = passages;
        this.vectors = vectors;
        this.seed = seed;
    }

    /** The dataset's base passages with their real vectors (computed once by {@code model}, then read from cache). */
    static ScaleCorpus of(BeirDataset ds, Embedder model, Path cache, long seed) {
        List<Passage> passages = passages(ds);
        if (passages.size() < 2) {
            throw new IllegalArgumentException("the dataset " + ds.name() + " has " + passages.size() + " passages of "
                    + MIN_PASSAGE_WORDS + " words or more; a generated corpus needs at least 2");
        }
        return new ScaleCorpus(passages, baseVectors(passages, model, cache), seed);
    }

    int basePassages() {
        return passages.size();
    }

    static List<Passage> passages(BeirDataset ds) {
        List<Passage> out = new ArrayList<>();
        for (BeirDataset.Doc d : ds.corpus().values()) {
            List<String> current = new ArrayList<>();
            for (String sentence : d.text().split("(?<=[.!?])\\s+")) {
                String[] words = sentence.strip().split("\\s+");
                if (words.length == 0 || words[0].isEmpty()) {
                    continue;
                }
                if (!current.isEmpty() && current.size() + words.length > PASSAGE_WORDS) {
                    if (current.size() >= MIN_PASSAGE_WORDS) {
                        out.add(new Passage(d.title(), current.toArray(String[]::new)));
                    }
                    current.clear();
                }
                current.addAll(Arrays.asList(words).subList(0, Math.min(words.length, PASSAGE_WORDS)));
            }
            if (current.size() >= MIN_PASSAGE_WORDS) {
                out.add(new Passage(d.title(), current.toArray(String[]::new)));
            }
        }
        return out;
    }

    /** What generated document {@code i} is made of. */
    record Mix(int p, int q, double alpha, String title, String text) {
    }

    Mix mix(long i) {
        int count = passages.size();
        if (i < count) {
            Passage p = passages.get((int) i);
            return new Mix((int) i, -1, 1.0, p.title() + " #g" + i, p.text());
        }
        SplittableRandom r = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + i);
        int p = (int) (i % count);
        int q = r.nextInt(count - 1);
        q = q >= p ? q + 1 : q;
        double alpha = 0.3 + 0.4 * r.nextDouble();
        String[] a = passages.get(p).words();
        String[] b = passages.get(q).words();
        int fromA = Math.max(1, (int) Math.round(alpha * a.length));
        int fromB = Math.max(1, (int) Math.round((1 - alpha) * b.length));
        int startA = r.nextInt(a.length - fromA + 1);
        int startB = r.nextInt(b.length - fromB + 1);
        StringBuilder text = new StringBuilder();
        for (int k = startA; k < startA + fromA; k++) {
            text.append(a[k]).append(' ');
        }
        for (int k = startB; k < startB + fromB; k++) {
            text.append(b[k]).append(k + 1 < startB + fromB ? " " : "");
        }
        return new Mix(p, q, alpha, passages.get(p).title() + " #g" + i, text.toString());
    }

    /** Generated document {@code i} as the HTML page the ingest pipeline reads. */
    SourceItem item(long i) {
        Mix m = mix(i);
        String html = "<html><head><title>" + escape(m.title()) + "</title></head><body><p>" + escape(m.text())
                + "</p></body></html>";
        return new SourceItem("scale:" + i, i + ".html", html.getBytes(StandardCharsets.UTF_8), "text/html");
    }

    /** The vector of generated document {@code i}: its passages' real vectors mixed, plus seeded noise. */
    float[] vector(long i) {
        Mix m = mix(i);
        float[] a = vectors[m.p()];
        if (m.q() < 0) {
            return a.clone();
        }
        float[] b = vectors[m.q()];
        SplittableRandom r = new SplittableRandom(~i * 0xBF58476D1CE4E5B9L + seed);
        double sigma = NOISE / Math.sqrt(a.length);
        float[] v = new float[a.length];
        double norm = 0;
        for (int k = 0; k < v.length; k++) {
            double x = m.alpha() * a[k] + (1 - m.alpha()) * b[k] + sigma * gaussian(r);
            v[k] = (float) x;
            norm += x * x;
        }
        float inv = (float) (1 / Math.sqrt(norm));
        for (int k = 0; k < v.length; k++) {
            v[k] *= inv;
        }
        return v;
    }

    /** The generated document a text handed to the embedder belongs to, or -1 when it holds no mark. */
    static long documentOf(String text) {
        Matcher m = MARK.matcher(text);
        return m.find() ? Long.parseLong(m.group(1)) : -1;
    }

    private static double gaussian(SplittableRandom r) {
        double u = r.nextDouble();
        double v = r.nextDouble();
        return Math.sqrt(-2 * Math.log(1 - u)) * Math.cos(2 * Math.PI * v);
    }

    private static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }

    private static float[][] baseVectors(List<Passage> passages, Embedder model, Path cache) {
        try {
            if (Files.exists(cache)) {
                try (DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(
                        cache)))) {
                    int n = in.readInt();
                    int dim = in.readInt();
                    if (n == passages.size() && dim == model.dimension()) {
                        float[][] out = new float[n][dim];
                        for (float[] v : out) {
                            for (int k = 0; k < dim; k++) {
                                v[k] = in.readFloat();
                            }
                        }
                        return out;
                    }
                }
            }
            System.out.printf(Locale.ROOT, "embedding %d base passages once (cached in %s)%n",
                    passages.size(), cache);
            List<String> texts = passages.stream().map(p -> Chunk.indexText(p.title(), List.of(), p.text())).toList();
            float[][] out = new float[texts.size()][];
            for (int i = 0; i < texts.size(); i += 64) {
                List<float[]> vs = model.embedPassages(texts.subList(i, Math.min(texts.size(), i + 64)));
                for (int k = 0; k < vs.size(); k++) {
                    out[i + k] = vs.get(k);
                }
            }
            Files.createDirectories(cache.toAbsolutePath().getParent());
            Path partial = cache.resolveSibling(cache.getFileName() + ".partial");
            try (DataOutputStream o = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(
                    partial)))) {
                o.writeInt(out.length);
                o.writeInt(model.dimension());
                for (float[] v : out) {
                    for (float x : v) {
                        o.writeFloat(x);
                    }
                }
            }
            Files.move(partial, cache, StandardCopyOption.REPLACE_EXISTING,
                    StandardCopyOption.ATOMIC_MOVE);
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read or write the base vectors at " + cache, e);
        }
    }
}
