package io.polyrag.retrieval;

import io.polyrag.core.http.OutboundException;
import io.polyrag.core.model.Ids;
import io.polyrag.core.port.LlmClient;
import java.util.List;
import java.util.Locale;

/**
 * The retrieval query of a conversation's next question. With a language model configured, the model condenses the
 * earlier questions and the new one into one standalone query ("condense the question"); without one, or when the
 * model fails or answers with something that is no query, the offline rewrite ({@link FollowUp}) makes it. A first
 * question is searched as it is.
 */
public final class Condenser {
    private static final System.Logger LOG = System.getLogger(Condenser.class.getName());
    /** Earlier questions the model is shown: the latest few are what a follow-up leans on. */
    private static final int MAX_TURNS = 6;
    private static final int MAX_TURN_CHARS = 1000;
    private static final int MAX_TOKENS = 96;
    static final String SYSTEM = "You rewrite the last question of a conversation as one standalone search query for "
            + "a document search engine. Use the earlier questions only to resolve what the last one refers to "
            + "(pronouns, omitted subjects). Keep the last question's own words and meaning; do not answer it and do "
            + "not add facts. If it already stands alone, return it unchanged. Reply with the query only, on one "
            + "line, without quotes.";

    /**
     * A rewritten query and what made it.
     *
     * @param query the query to retrieve with
     * @param by {@code llm}, {@code offline}, or {@code none} (the question as it is)
     * @param problem why the model's rewrite was not used, when it was asked and failed; null otherwise
     */
    public record Rewrite(String query, String by, String problem) {
    }

    private final LlmClient llm;

    /** @param llm the configured model, or null: the offline rewrite only */
    public Condenser(LlmClient llm) {
        this.llm = llm;
    }

    public Rewrite rewrite(List<String> history, String question) {
        List<String> earlier = history == null ? List.of() : history.stream().filter(h -> h != null && !h.isBlank())
                .toList();
        if (earlier.isEmpty()) {
            return new Rewrite(question, "none", null);
        }
        String offline = FollowUp.rewrite(earlier, question);
        Rewrite fallback = new Rewrite(offline, offline.equals(question) ? "none" : "offline", null);
        if (llm == null) {
            return fallback;
        }
        StringBuilder prompt = new StringBuilder("Earlier questions, oldest first:\n");
        List<String> shown = earlier.subList(Math.max(0, earlier.size() - MAX_TURNS), earlier.size());
        for (int i = 0; i < shown.size(); i++) {
            prompt.append(i + 1).append(". ").append(clip(shown.get(i))).append('\n');
        }
        prompt.append("\nLast question: ").append(clip(question)).append("\n\nStandalone search query:");
        try {
            LlmClient.Response r = llm.complete(new LlmClient.Request(SYSTEM, List.of(new LlmClient.Message("user",
                    prompt.toString())), MAX_TOKENS, 0.0, false));
            String q = cleaned(r.text());
            if (q.isEmpty() || q.length() > Math.max(300, 4 * question.length())) {
                return problem(fallback, "the language model's rewrite was " + (q.isEmpty() ? "empty" : q.length()
                        + " characters long") + ": the offline rewrite was used");
            }
            return new Rewrite(q, "llm", null);
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "condensing the question failed", e);
            return problem(fallback, "the language model could not condense the question (" + OutboundException.shown(e)
                    + "): the offline rewrite was used");
        }
    }

    private static Rewrite problem(Rewrite fallback, String why) {
        LOG.log(System.Logger.Level.WARNING, why);
        return new Rewrite(fallback.query(), fallback.by(), why);
    }

    /** The model's reply as a query: its first non-empty line, without a label, quotes or a trailing period. */
    static String cleaned(String reply) {
        String line = reply == null ? "" : reply.strip().lines().map(String::strip).filter(l -> !l.isEmpty())
                .findFirst().orElse("");
        String lower = line.toLowerCase(Locale.ROOT);
        for (String label : List.of("standalone search query:", "search query:", "query:", "rewritten question:")) {
            if (lower.startsWith(label)) {
                line = line.substring(label.length()).strip();
                break;
            }
        }
        while (line.length() >= 2 && "\"'`“”‘’".indexOf(line.charAt(0)) >= 0
                && "\"'`“”‘’".indexOf(line.charAt(line.length() - 1)) >= 0) {
            line = line.substring(1, line.length() - 1).strip();
        }
        return line;
    }

    private static String clip(String s) {
        String one = s.strip().replaceAll("\\s+", " ");
        return one.length() <= MAX_TURN_CHARS ? one : Ids.abbreviate(one, MAX_TURN_CHARS);
    }
}
