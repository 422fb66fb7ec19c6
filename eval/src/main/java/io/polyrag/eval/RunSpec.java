package io.polyrag.eval;

import io.polyrag.core.InvalidInputException;
import io.polyrag.core.model.FusionMethod;
import io.polyrag.core.model.Modality;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/**
 * One configuration to evaluate: which retrievers and how to fuse them.
 *
 * <p>Names: a modality ({@code fulltext}, {@code vector}, …) runs alone; {@code hybrid} runs every enabled modality
 * with the configured fusion; {@code rrf} and {@code weighted} do the same with that fusion; {@code a+b[:fusion]}
 * names the modalities and optionally the fusion. {@code raw-bm25}, {@code raw-vector}, {@code raw-rrf} and {@code raw-minmax} are
 * the raw-library reference ({@link RawReference}): the same model and BM25 parameters built directly, document by
 * document, none of polyrag's pipeline.
 *
 * @param name the name shown in reports
 * @param modalities the retrievers to run (for a raw run, the ones its reference stands for)
 * @param fusion the fusion method, or null for the configured one
 * @param raw which raw-library reference this run is, or null for polyrag itself
 */
public record RunSpec(String name, Set<Modality> modalities, FusionMethod fusion, RawReference.Kind raw) {

    public RunSpec(String name, Set<Modality> modalities, FusionMethod fusion) {
        this(name, modalities, fusion, null);
    }

    public static RunSpec parse(String spec, List<Modality> enabled) {
        String s = spec.strip();
        switch (s) {
            case "raw-bm25", "raw-vector", "raw-rrf", "raw-minmax" -> {
                if (!enabled.contains(Modality.VECTOR) && !s.equals("raw-bm25")) {
                    throw new InvalidInputException("run '" + s + "' needs the embedding model, and vectors are off");
                }
                RawReference.Kind kind = RawReference.Kind.valueOf(s.substring(4).toUpperCase(Locale.ROOT));
                Set<Modality> mods = switch (kind) {
                    case BM25 -> Set.of(Modality.FULLTEXT);
                    case VECTOR -> Set.of(Modality.VECTOR);
                    case RRF, MINMAX -> Set.of(Modality.VECTOR, Modality.FULLTEXT);
                };
                return new RunSpec(s, mods, kind == RawReference.Kind.RRF ? FusionMethod.RRF
                        : kind == RawReference.Kind.MINMAX ? FusionMethod.WEIGHTED : null, kind);
            }
            case "hybrid" -> {
                return new RunSpec(s, Set.copyOf(enabled), null);
            }
            case "rrf", "weighted" -> {
                return new RunSpec(s, Set.copyOf(enabled), FusionMethod.parse(s));
            }
            default -> {
                String[] parts = s.split(":", 2);
                Set<Modality> mods = new TreeSet<>();
                for (String m : parts[0].split("\\+")) {
                    Modality modality = Modality.parse(m);
                    if (!enabled.contains(modality)) {
                        throw new InvalidInputException("run '" + s + "' needs modality '" + m
                                + "', which is not enabled");
                    }
                    mods.add(modality);
                }
                return new RunSpec(s, mods, parts.length > 1 ? FusionMethod.parse(parts[1]) : null);
            }
        }
    }

    /**
     * Every enabled modality alone, then the fused combinations: when the graph arms are on, vector + full text
     * fused without them first, so the table shows what they add.
     */
    public static List<RunSpec> defaults(List<Modality> enabled) {
        List<RunSpec> runs = new ArrayList<>();
        for (Modality m : enabled) {
            runs.add(new RunSpec(m.wireName(), Set.of(m), null));
        }
        if (enabled.size() > 2 && enabled.contains(Modality.VECTOR) && enabled.contains(Modality.FULLTEXT)) {
            runs.add(new RunSpec("vector+fulltext", Set.of(Modality.VECTOR, Modality.FULLTEXT),
                    FusionMethod.WEIGHTED));
        }
        if (enabled.size() > 1) {
            runs.add(new RunSpec("rrf", Set.copyOf(enabled), FusionMethod.RRF));
            runs.add(new RunSpec("weighted", Set.copyOf(enabled), FusionMethod.WEIGHTED));
        }
        return runs;
    }
}
