package io.polyrag.retrieval;

import io.polyrag.core.model.Chunk;
import io.polyrag.core.model.ChunkView;
import io.polyrag.core.model.SourceScore;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Merges hits that say the same thing, in three layers: the same chunk id; the same text once normalised (case,
 * accents, punctuation and spacing ignored); word sets whose Jaccard overlap reaches the threshold. A duplicate is
 * merged into the better-ranked hit. Agreement between modalities is evidence, repetition inside one is not: per
 * modality the merged hit keeps the best contribution of its members, and its score is the sum of those over the
 * modalities (so twenty near-copies found by one retriever count once); each source keeps its better rank, and the
 * hit lists the chunks it merged.
 *
 * <p>Candidates are taken in fused order until {@code limit} distinct hits are kept; later candidates cannot enter
 * the result, so they are not examined (their scores are not merged either). The result is re-sorted by
 * {@link FusedHit#ORDER}. Near-duplicates are found by prefix filtering, so a candidate is compared only with the
 * few kept hits that share one of its rarest words; the cost is close to linear in the candidates' text.
 */
public final class Dedup {
    /** A fused hit with the chunk it points at. */
    public record Candidate(FusedHit hit, ChunkView view) {
    }

    private static final Pattern MARKS = Pattern.compile("\\p{M}+");

    private final double threshold;

    public Dedup(double threshold) {
        if (!(threshold > 0 && threshold <= 1)) {
            throw new IllegalArgumentException("dedup threshold must be in (0, 1], was " + threshold);
        }
        this.threshold = threshold;
    }

    public List<Candidate> apply(List<Candidate> ranked, int limit) {
        // Each candidate's text is normalised when the loop reaches it, in one pass, and candidates after the
        // limit-th distinct hit are never normalised at all (this was two thirds of a hybrid search's own time).
        Normalised[] texts = new Normalised[ranked.size()];
        List<Candidate> kept = new ArrayList<>();
        List<int[]> keptSets = new ArrayList<>();
        Map<String, Integer> byId = new HashMap<>();
        Map<Long, Integer> byText = new HashMap<>();
        Map<Integer, List<Integer>> byPrefixToken = new HashMap<>();
        for (int n = 0; n < ranked.size(); n++) {
            Candidate c = ranked.get(n);
            Integer into = byId.get(c.hit().chunkId());
            if (into == null) {
                texts[n] = normalised(c.view().chunk().text());
                into = byText.get(texts[n].key());
                if (into != null && !normalise(kept.get(into).view().chunk().text()).equals(normalise(c.view()
                        .chunk().text()))) {
                    into = null; // two texts whose 64-bit keys collide: not the same text after all
                }
                Chunk same = into == null ? null : kept.get(into).view().chunk();
                if (same != null && !same.documentId().equals(c.view().chunk().documentId())
                        && !sameFacts(same.text(), c.view().chunk().text())) {
                    into = null; // the same words, other signs: "eGFR < 30" and "eGFR > 30", "$5" and "€5"
                }
            }
            if (into == null) {
                into = similar(texts[n].words(), keptSets, byPrefixToken);
                Chunk held = into == null ? null : kept.get(into).view().chunk();
                if (held != null && !held.documentId().equals(c.view().chunk().documentId())
                        && !sameFacts(held.text(), c.view().chunk().text())) {
                    into = null;
                }
            }
            if (into != null) {
                kept.set(into, merge(kept.get(into), c));
                continue;
            }
            if (kept.size() == limit) {
                break;
            }
            int index = kept.size();
            byId.put(c.hit().chunkId(), index);
            byText.put(texts[n].key(), index);
            int[] set = texts[n].words();
            for (int i = 0; i < prefixLength(set.length); i++) {
                byPrefixToken.computeIfAbsent(set[i], k -> new ArrayList<>()).add(index);
            }
            kept.add(c);
            keptSets.add(set);
        }
        kept.sort((a, b) -> FusedHit.ORDER.compare(a.hit(), b.hit()));
        return kept;
    }

    /** Numbers and negations: what two nearly equal texts must share to be one (fees-2023 and fees-2024). */
    private static final Pattern FACTS = Pattern.compile("(?<![\\p{L}\\p{N}&&[^\\p{IsHan}\\p{IsHiragana}"
            + "\\p{IsKatakana}\\p{IsThai}]])\\d+(?:[.,]\\d+)*" // a number, after a Chinese character too (为45元)
            + "|[\\p{Sm}\\p{Sc}]|(?<![\\p{L}\\p{N}])-(?=\\d)" // signs: < > = ± $ € and a minus
            // Negations as words of any script: \\b is ASCII-only, so "ningún" never matched, nor any Cyrillic, Greek
            // or Devanagari word ("не", "δεν", "नहीं").
            + "|(?<![\\p{L}\\p{M}\\p{N}])(?:not|no|never|none|cannot|nor|nicht|kein|keine|keinen|keiner|nie|niemals"
            + "|pas|jamais|aucun|aucune|nunca|nada|ningún|ninguna|nenhum|nenhuma|não|niet|geen|nooit|non|ikke|inte|ei"
            + "|değil|не|нет|ни|δεν|μην|όχι|לא|لا|ليس|नहीं|न)(?![\\p{L}\\p{M}\\p{N}])|n't|[不没無无非未]"
            + "|ない|ません|않|없",
            Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);

    /**
     * Whether two texts found nearly the same hold the same numbers and negations. Asked of two documents' texts
     * only: two versions of a price list that differ in one figure (45 against 50 over 300 words is 0.99 overlap),
     * or a statement and its negation, are two hits, not one shown for both (the other only in {@code merged},
     * which an answer never cites); one document's repeated boilerplate ("page 3 of 10") still merges.
     */
    static boolean sameFacts(String a, String b) {
        return facts(a).equals(facts(b));
    }

    private static List<String> facts(String text) {
        List<String> out = new ArrayList<>();
        Matcher m = FACTS.matcher(text);
        while (m.find()) {
            out.add(m.group().toLowerCase(Locale.ROOT));
        }
        Collections.sort(out);
        return out;
    }

    /**
     * Prefix filtering (as in the all-pairs similarity search literature): with every set's tokens sorted in one
     * global order (here: by hash, so a set can be made on its own, when its candidate is reached), two sets whose
     * Jaccard overlap reaches t share a token within the first {@code |A| - ceil(t·|A|) + 1} tokens of each, so only
     * the kept hits sharing one of those are compared with a candidate.
     */
    private int prefixLength(int size) {
        // A text without a word (a chunk of dots or dashes, as a table of contents' leaders make) has no prefix: it
        // is merged only with a text that normalises to the same (nothing), never by overlap.
        return size == 0 ? 0 : size - (int) Math.ceil(threshold * size - 1e-9) + 1;
    }

    private Integer similar(int[] set, List<int[]> keptSets, Map<Integer, List<Integer>> byPrefixToken) {
        BitSet tried = new BitSet(keptSets.size());
        for (int i = 0; i < Math.min(set.length, prefixLength(set.length)); i++) {
            for (int k : byPrefixToken.getOrDefault(set[i], List.of())) {
                if (tried.get(k)) {
                    continue;
                }
                tried.set(k);
                int[] other = keptSets.get(k);
                int small = Math.min(set.length, other.length);
                int large = Math.max(set.length, other.length);
                // Jaccard <= small / large: sets this different in size cannot reach the threshold.
                if ((double) small / large >= threshold && reaches(set, other, threshold)) {
                    return k;
                }
            }
        }
        return null;
    }

    /**
     * Whether two sorted, duplicate-free arrays overlap by at least {@code t} (Jaccard), stopping as soon as the
     * answer is known: |A ∩ B| / |A ∪ B| ≥ t needs |A ∩ B| ≥ t (|A| + |B|) / (1 + t), so once the words left cannot
     * make up the common ones still missing, the answer is no. Two passages that merely share a prefix word are told
     * apart within their first few differing words instead of a full merge (a deep search compares hundreds of
     * such pairs: this was most of a 300-deep full-text search's time).
     */
    static boolean reaches(int[] a, int[] b, double t) {
        int needed = (int) Math.ceil(t * (a.length + b.length) / (1 + t) - 1e-9);
        int i = 0;
        int j = 0;
        int common = 0;
        while (common < needed) {
            if (common + Math.min(a.length - i, b.length - j) < needed) {
                return false;
            }
            if (a[i] == b[j]) {
                common++;
                i++;
                j++;
            } else if (a[i] < b[j]) {
                i++;
            } else {
                j++;
            }
        }
        return true;
    }

    private static Candidate merge(Candidate keep, Candidate dup) {
        FusedHit k = keep.hit();
        FusedHit d = dup.hit();
        Map<String, SourceScore> sources = new HashMap<>(k.sources());
        d.sources().forEach((m, s) -> sources.merge(m, s, (x, y) -> x.rank() <= y.rank() ? x : y));
        Map<String, Double> best = new HashMap<>(attributed(k));
        attributed(d).forEach((m, c) -> best.merge(m, c, Math::max));
        List<String> merged = new ArrayList<>(k.merged());
        merged.add(d.chunkId());
        merged.addAll(d.merged());
        double score = best.values().stream().mapToDouble(Double::doubleValue).sum();
        return new Candidate(new FusedHit(k.chunkId(), score, sources, best, merged), keep.view());
    }

    /** A hit's contributions by modality; a hit that has none counts its whole score as one. */
    private static Map<String, Double> attributed(FusedHit h) {
        return h.contributions().isEmpty() ? Map.of("", h.score()) : h.contributions();
    }

    /**
     * A text normalised: a 64-bit key of its normalised form (FNV-1a over its characters; equal texts, equal keys,
     * and a key shared by different texts is caught by comparing them) and its distinct words as sorted hashes.
     */
    record Normalised(long key, int[] words) {
    }

    private static final long FNV_OFFSET = 0xcbf29ce484222325L;
    private static final long FNV_PRIME = 0x100000001b3L;

    /** Lower case, accents and punctuation removed, whitespace collapsed. */
    static String normalise(String text) {
        StringBuilder out = new StringBuilder(text.length());
        scan(text, out);
        return out.toString();
    }

    /** The distinct words of normalised text, as sorted hashes. */
    static int[] words(String normalised) {
        return normalised(normalised).words();
    }

    /** The key and words of a text's normalised form, without making that form (a search normalises 20 texts). */
    static Normalised normalised(String raw) {
        return scan(raw, null);
    }

    /**
     * Lower case, accents removed (NFKD, then combining marks dropped; skipped for ASCII, lower-cased as it is
     * read), then one pass: runs of letters and numbers are the words, everything else separates them. The words
     * joined by single spaces are the normalised text (appended to {@code out} when given, keyed either way); their
     * {@link String#hashCode}s, sorted and distinct, the word set.
     */
    private static Normalised scan(String raw, StringBuilder out) {
        boolean ascii = true;
        for (int i = 0; i < raw.length() && ascii; i++) {
            ascii = raw.charAt(i) < 0x80;
        }
        String s = ascii ? raw : MARKS.matcher(Normalizer.normalize(raw, Normalizer.Form.NFKD)).replaceAll("")
                .toLowerCase(Locale.ROOT);
        int[] hashes = new int[16];
        int count = 0;
        int hash = 0;
        long key = FNV_OFFSET;
        boolean inWord = false;
        for (int i = 0; i < s.length(); ) {
            int cp = ascii ? lower(s.charAt(i)) : s.codePointAt(i);
            int width = ascii ? 1 : Character.charCount(cp);
            if (wordChar(cp, ascii)) {
                if (!inWord && count > 0) {
                    key = (key ^ ' ') * FNV_PRIME;
                    if (out != null) {
                        out.append(' ');
                    }
                }
                inWord = true;
                if (out != null) {
                    out.appendCodePoint(cp);
                }
                for (int k = 0; k < width; k++) {
                    char ch = ascii ? (char) cp : s.charAt(i + k);
                    hash = 31 * hash + ch;
                    key = (key ^ ch) * FNV_PRIME;
                }
            } else if (inWord) {
                if (count == hashes.length) {
                    hashes = Arrays.copyOf(hashes, count * 2);
                }
                hashes[count++] = hash;
                hash = 0;
                inWord = false;
            }
            i += width;
        }
        if (inWord) {
            if (count == hashes.length) {
                hashes = Arrays.copyOf(hashes, count + 1);
            }
            hashes[count++] = hash;
        }
        int[] words = Arrays.copyOf(hashes, count);
        Arrays.sort(words);
        int distinct = 0;
        for (int i = 0; i < words.length; i++) {
            if (i == 0 || words[i] != words[i - 1]) {
                words[distinct++] = words[i];
            }
        }
        return new Normalised(key, Arrays.copyOf(words, distinct));
    }

    private static int lower(char c) {
        return c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c;
    }

    /** {@code \p{L}} or {@code \p{N}}, as the pattern that defined words before. */
    private static boolean wordChar(int cp, boolean ascii) {
        if (ascii) {
            return cp >= 'a' && cp <= 'z' || cp >= '0' && cp <= '9';
        }
        if (Character.isLetter(cp)) {
            return true;
        }
        int t = Character.getType(cp);
        return t == Character.DECIMAL_DIGIT_NUMBER || t == Character.LETTER_NUMBER || t == Character.OTHER_NUMBER;
    }
}
