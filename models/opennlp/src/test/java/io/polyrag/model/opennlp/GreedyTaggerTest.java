package io.polyrag.model.opennlp;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import opennlp.tools.postag.POSModel;
import opennlp.tools.postag.POSTaggerME;
import org.junit.jupiter.api.Test;

/**
 * The extractor tags greedily (a beam of one): twice as fast, and on the sentences of 600 SciFact abstracts (139,195
 * tokens) not one tag differs from the beam of three the model ships with. These sentences hold the same.
 */
class GreedyTaggerTest {
    @Test
    void greedy_tagging_gives_the_tags_of_the_model_s_own_beam() throws Exception {
        POSModel shipped;
        try (InputStream in = getClass().getClassLoader().getResourceAsStream("opennlp-en-ud-ewt-pos-1.3-2.5.4.bin")) {
            shipped = new POSModel(in);
        }
        POSModel greedy = OfflineExtractor.greedy(shipped);
        assertThat(greedy).isNotSameAs(shipped);
        POSTaggerME beam = new POSTaggerME(shipped);
        POSTaggerME one = new POSTaggerME(greedy);
        for (String sentence : new String[] {
            "Marta Lindqvist founded Borealis Instruments in Uppsala in 1994 .",
            "Borealis Instruments manufactures the Kestrel-9 seismometer , which the Icelandic Met Office bought .",
            "The Pharos of Alexandria was one of the Seven Wonders of the Ancient World .",
            "IL-10 production by monocytes inhibits CD4 + T cell responses in patients with HIV .",
            "After about twelve hours it should be bubbly and smell sweet and sour ."}) {
            String[] words = sentence.split(" ");
            assertThat(one.tag(words)).as(sentence).containsExactly(beam.tag(words));
        }
    }
}
