package io.polyrag.core.model;

/**
 * A figure attached to a search hit or an answer source: enough to show it, and to fetch its image from
 * {@code /v1/documents/{documentId}/figures/{number}}.
 *
 * @param documentId the document it is part of
 * @param number its number within the document's visible version
 * @param caption its caption, or empty
 * @param location where in the document it is ({@code page 3}, {@code slide 2}), or empty
 * @param mediaType the image's type
 * @param width pixels
 * @param height pixels
 * @param anchored true when it came with a hit it belongs to; false when its caption matched the query
 * @param box where it sits on its page or slide, in points from the top left; null where the format does not say
 */
public record FigureRef(String documentId, int number, String caption, String location, String mediaType, int width,
        int height, boolean anchored, Figure.Box box) {
}
