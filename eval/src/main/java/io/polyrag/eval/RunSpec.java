package io.polyrag.eval;

import io.polyrag.core.InvalidInputException;
import io.polyrag.core.model.FusionMethod;
import io.polyrag.core.model.Modality;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * One configuration to evaluate: which retrievers and how to fuse them.
 *
 * <p>Names: a modality ({@code fulltext}, {@code vector}, …) runs alone; {@code hybrid} runs every enabled modality
 * with the configured fusion; {@code rrf} and {@code weighted} do the same with that fusion; {@code a+b[:fusion]}
 * names the modalities and optionally the fusion.
 *
 * @param name the name shown in reports
 * @param modalities the retrievers to run
 * @param fusion the fusion method, or null for the configured one
 */
public record RunSpec(String name, Set<Modality> modalities, FusionMethod fusion) {

    public static RunSpec parse(String spec, List<Modality> enabled) {
        String s = spec.strip();
        switch (s) {
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
