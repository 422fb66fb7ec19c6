package io.polyrag.eval;

import io.polyrag.app.Polyrag;
import io.polyrag.app.api.PathIngest;
import io.polyrag.core.InvalidInputException;
import io.polyrag.core.model.SearchHit;
import io.polyrag.core.model.SearchRequest;
import io.polyrag.core.port.ProgressListener;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;

/**
 * Whether a follow-up finds its passage: conversations of two or three user turns, each turn with the document and
 * the sentence that answers it ({@code eval/conversations/conversations.jsonl}). Every follow-up is searched twice —
 * alone, as a system without history would, and rewritten from the earlier turns
 * (the facade's {@code followUp}, as {@code /v1/query} with {@code messages} does) — and counts when the first hit is from its document and holds its sentence.
 */
public final class ConversationQuality {
    private ConversationQuality() {
    }

    /** One follow-up: found alone, found with the conversation, and the query used. */
    public record Case(String conversation, String question, String rewritten, String document, boolean alone,
            boolean withHistory) {
    }

    /** @param firstTurns first turns whose first hit holds the sentence (the set's own floor) */
    public record Report(List<Case> cases, int firstTurns, int firstTurnsFound, long documents) {
        public long alone() {
            return cases.stream().filter(Case::alone).count();
        }

        public long withHistory() {
            return cases.stream().filter(Case::withHistory).count();
        }
    }

    private record Turn(String user, String document, String sentence) {
    }

    private record Conversation(String id, List<Turn> turns) {
    }

    static List<Conversation> read(Path file) {
        return JsonLines.read(file, (c, n) -> {
            List<Turn> turns = new ArrayList<>();
            for (JsonNode t : c.path("turns")) {
                turns.add(new Turn(t.path("user").asString(""), t.path("document").asString(""),
                        t.path("sentence").asString("")));
            }
            if (turns.size() < 2 || turns.stream().anyMatch(t -> t.user().isBlank() || t.document().isBlank()
                    || t.sentence().isBlank())) {
                throw new InvalidInputException(file + " line " + n + ": a conversation needs two or more turns, "
                        + "each with user, document and sentence");
            }
            return new Conversation(c.path("id").asString("line " + n), turns);
        });
    }

    /** Indexes {@code corpus} into {@code polyrag} (an empty data directory), then searches every turn. */
    public static Report run(Polyrag polyrag, Path file, List<Path> corpus) {
        List<Conversation> conversations = read(file);
        polyrag.ingest().paths(new PathIngest(corpus, null, List.of(), List.of()), ProgressListener.NONE);
        List<Case> cases = new ArrayList<>();
        int first = 0;
        for (Conversation c : conversations) {
            List<String> history = new ArrayList<>();
            for (int i = 0; i < c.turns().size(); i++) {
                Turn t = c.turns().get(i);
                if (i == 0) {
                    first += found(polyrag, t.user(), t) ? 1 : 0;
                } else {
                    String rewritten = polyrag.search().followUp(history, t.user());
                    cases.add(new Case(c.id(), t.user(), rewritten, t.document(), found(polyrag, t.user(), t),
                            found(polyrag, rewritten, t)));
                }
                history.add(t.user());
            }
        }
        return new Report(cases, conversations.size(), first, polyrag.admin().status().documents());
    }

    private static boolean found(Polyrag polyrag, String query, Turn t) {
        List<SearchHit> hits = polyrag.search().run(SearchRequest.of(query, 1)).hits();
        if (hits.isEmpty()) {
            return false;
        }
        SearchHit top = hits.getFirst();
        return top.uri().endsWith("/" + t.document()) && normalise(top.text()).contains(normalise(t.sentence()));
    }

    private static String normalise(String s) {
        return s.replaceAll("\\s+", " ").strip();
    }
}
