package io.polyrag.core.model;

/**
 * How the intent router handled a question before answering it.
 *
 * @param intent {@code lookup}, {@code summary}, {@code comparison}, {@code list}, {@code chitchat} or
 *     {@code out_of_scope}
 * @param scope for a summary: {@code document} (the best-matching document, read in order) or {@code collection}
 *     (an overview of the documents searched); null otherwise
 * @param reason why, in words for the reader
 * @param by {@code model} (the configured language model decided) or {@code offline} (rules over the question's
 *     words)
 * @param topK the hits searched for (0: not searched)
 * @param neighbours the chunks added around each hit
 * @param style the answer's layout: {@code answer}, {@code list}, {@code comparison}, {@code summary},
 *     {@code overview} or {@code direct}
 */
public record AnswerRoute(String intent, String scope, String reason, String by, int topK, int neighbours,
        String style) {
}
