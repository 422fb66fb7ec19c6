package io.polyrag.ingest;

import io.polyrag.core.model.Figure;

/** A figure about to be indexed: its chunk's place among the document's drafts, what the catalog keeps, its bytes. */
record PreparedFigure(int draft, Figure figure, byte[] bytes) {
}
