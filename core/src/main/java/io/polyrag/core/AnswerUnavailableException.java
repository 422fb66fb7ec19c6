package io.polyrag.core;

import io.polyrag.core.model.AnswerSource;
import java.util.List;

/**
 * Retrieval worked but the language model could not write the answer. Carries the sources, so a caller can still
 * show them; front doors answer 502 with the provider's reason.
 */
public class AnswerUnavailableException extends PolyragException {
    private static final long serialVersionUID = 1L;

    private final transient List<AnswerSource> sources;

    public AnswerUnavailableException(String message, List<AnswerSource> sources, Throwable cause) {
        super(message, cause);
        this.sources = List.copyOf(sources);
    }

    public List<AnswerSource> sources() {
        return sources;
    }
}
