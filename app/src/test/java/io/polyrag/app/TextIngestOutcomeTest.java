package io.polyrag.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.polyrag.core.InvalidInputException;
import io.polyrag.core.UnavailableException;
import io.polyrag.core.model.IngestReport;
import io.polyrag.core.model.ItemError;
import java.util.List;
import org.junit.jupiter.api.Test;

/** An ingest of one text answers with its report only when the text was indexed; a failure is an error. */
class TextIngestOutcomeTest {
    @Test
    void a_text_refused_for_its_content_is_invalid_input() {
        IngestReport r = IngestReport.builder().counts(1, 0, 0, 0, 1)
                .errors(List.of(new ItemError("text.html", "text.html: no text to index"))).build();
        assertThatThrownBy(() -> Ingest.refusedAlone(r)).isInstanceOf(InvalidInputException.class)
                .hasMessage("'text' was not indexed: text.html: no text to index");
    }

    @Test
    void a_text_that_failed_for_another_reason_may_be_sent_again() {
        IngestReport r = IngestReport.builder().counts(1, 0, 0, 0, 1).errors(List.of(new ItemError("text.txt",
                "text.txt: embedding failed: the model is out of memory", true))).build();
        assertThatThrownBy(() -> Ingest.refusedAlone(r)).isInstanceOf(UnavailableException.class)
                .hasMessageContaining("embedding failed: the model is out of memory; send it again");
        assertThatThrownBy(() -> Ingest.refusedAlone(IngestReport.builder().counts(1, 0, 0, 0, 1).build()))
                .isInstanceOf(UnavailableException.class);
    }

    @Test
    void an_indexed_or_unchanged_text_is_its_report() {
        IngestReport added = IngestReport.builder().counts(1, 1, 0, 0, 0).build();
        assertThat(Ingest.refusedAlone(added)).isSameAs(added);
        IngestReport unchanged = IngestReport.builder().counts(1, 0, 0, 1, 0).build();
        assertThat(Ingest.refusedAlone(unchanged)).isSameAs(unchanged);
    }
}
