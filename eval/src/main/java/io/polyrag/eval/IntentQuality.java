package io.polyrag.eval;

import io.polyrag.app.Polyrag;
import io.polyrag.app.api.PathIngest;
import io.polyrag.core.InvalidInputException;
import io.polyrag.core.model.Answer;
import io.polyrag.core.model.SearchRequest;
import io.polyrag.core.port.ProgressListener;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The intent router measured offline on labelled questions ({@code eval/intents/questions.jsonl}: question, intent,
 * for a summary its scope, and for lookups, lists and comparisons the document and a sentence a good answer
 * quotes). Each question is answered twice through the facade — router off, router on — and counts: the intent
 * decided against its label, and whether the answer quotes the sentence (or, for a summary of one document, draws
 * on that document).
 */
public final class IntentQuality {
    static final List<String> INTENTS = List.of("lookup", "summary", "comparison", "list", "chitchat",
            "out_of_scope");

    private IntentQuality() {
    }

    /** One question: what it is, what the router decided, and what each answer did. */
    public record Case(String id, String question, String intent, String scope, String decided,
            String decidedScope, String reason, Boolean quotedBefore, Boolean quotedAfter) {
        public boolean correct() {
            return intent.equals(decided) && (scope == null || scope.equals(decidedScope));
        }
    }

    /** Per intent: questions and those decided right. */
    public record PerIntent(String intent, int questions, int correct) {
    }

    public record Report(List<Case> cases, List<PerIntent> perIntent, int correct, int quotable, int quotedBefore,
            int quotedAfter) {
    }

    private record Question(String id, String question, String intent, String scope, String document,
            String sentence) {
    }

    static List<Question> read(Path file) {
        return JsonLines.read(file, (q, n) -> {
            String intent = q.path("intent").asString("");
            if (q.path("question").asString("").isBlank() || !INTENTS.contains(intent)) {
                throw new InvalidInputException(file + " line " + n + ": needs 'question' and 'intent' (one of "
                        + String.join(", ", INTENTS) + ")");
            }
            return new Question(q.path("id").asString("line " + n), q.path("question").asString(), intent,
                    q.path("scope").isMissingNode() ? null : q.path("scope").asString(null),
                    q.path("document").asString(null), q.path("sentence").asString(null));
        });
    }

    /** Indexes {@code corpus} into {@code polyrag} (an empty data directory), then asks every question twice. */
    public static Report run(Polyrag polyrag, Path file, List<Path> corpus) {
        List<Question> questions = read(file);
        polyrag.ingest().paths(new PathIngest(corpus, null, List.of(), List.of()), ProgressListener.NONE);
        int topK = polyrag.search().defaultAnswerTopK();
        List<Case> cases = new ArrayList<>();
        for (Question q : questions) {
            Answer before = polyrag.search().answer(SearchRequest.of(q.question(), topK), null, false, t -> { },
                    Boolean.FALSE);
            Answer after = polyrag.search().answer(SearchRequest.of(q.question(), topK), null, false, t -> { },
                    Boolean.TRUE);
            cases.add(new Case(q.id(), q.question(), q.intent(), q.scope(), after.route().intent(),
                    after.route().scope(), after.route().reason(), quoted(q, before), quoted(q, after)));
        }
        List<PerIntent> per = new ArrayList<>();
        Map<String, int[]> counts = new LinkedHashMap<>();
        INTENTS.forEach(i -> counts.put(i, new int[2]));
        for (Case c : cases) {
            counts.get(c.intent())[0]++;
            counts.get(c.intent())[1] += c.correct() ? 1 : 0;
        }
        counts.forEach((i, n) -> per.add(new PerIntent(i, n[0], n[1])));
        List<Case> quotable = cases.stream().filter(c -> c.quotedBefore() != null).toList();
        return new Report(cases, per, (int) cases.stream().filter(Case::correct).count(), quotable.size(),
                (int) quotable.stream().filter(Case::quotedBefore).count(),
                (int) quotable.stream().filter(Case::quotedAfter).count());
    }

    /**
     * Whether the answer does what the question needs: quotes its sentence (a lookup, list or comparison), draws on
     * its document (a summary of one document); null when the label names neither.
     */
    private static Boolean quoted(Question q, Answer a) {
        if (q.sentence() != null && Set.of("lookup", "list", "comparison").contains(q.intent())) {
            return normalise(a.answer()).contains(normalise(q.sentence()));
        }
        if ("summary".equals(q.intent()) && q.document() != null) {
            return !a.sources().isEmpty() && a.sources().getFirst().uri().endsWith("/" + q.document());
        }
        return null;
    }

    private static String normalise(String s) {
        return s.replaceAll("\\s+", " ").replaceAll("\\s*\\[\\d+]", "").strip().toLowerCase(Locale.ROOT);
    }
}
