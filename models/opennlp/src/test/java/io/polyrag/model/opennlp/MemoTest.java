package io.polyrag.model.opennlp;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.util.Arrays;
import opennlp.tools.lemmatizer.LemmatizerME;
import opennlp.tools.lemmatizer.LemmatizerModel;
import opennlp.tools.postag.POSModel;
import opennlp.tools.postag.POSTaggerME;
import opennlp.tools.tokenize.TokenizerME;
import opennlp.tools.tokenize.TokenizerModel;
import opennlp.tools.util.Span;
import org.junit.jupiter.api.Test;

/**
 * Remembered splits and lemmas are the models' own: each sentence tokenized through the memo (the first time, and
 * again from what it remembered) gives the tokenizer's spans, and each word's remembered lemma the lemmatizer's. On
 * the sentences of 1,000 SciFact abstracts not one token or lemma differed; these sentences hold the same, tricky
 * tokens included.
 */
class MemoTest {
    private static final String[] SENTENCES = {
        "Marta Lindqvist founded Borealis Instruments in Uppsala in 1994.",
        "Borealis Instruments manufactures the Kestrel-9 seismometer, which the Icelandic Met Office bought.",
        "IL-10 production by monocytes (CD14+) inhibits CD4+ T-cell responses in 3.5% of patients, e.g. with HIV.",
        "\"Don't,\" she said; the U.S. company's shares fell 12% on 2024-03-01 (see https://example.com/a?b=c).",
        "The brigantine's home port was St. John's — it sailed on 7 May, didn't it?",
        "They'd been running tests… the results (n=42, p<0.05) weren't what Dr. O'Neill expected!"};

    @Test
    void remembered_splits_and_lemmas_are_the_models_answers() throws Exception {
        TokenizerME tokenizer = new TokenizerME(MemoTest.<TokenizerModel>load("opennlp-en-ud-ewt-tokens-1.3-2.5.4.bin",
                TokenizerModel::new));
        POSTaggerME tagger = new POSTaggerME(MemoTest.<POSModel>load("opennlp-en-ud-ewt-pos-1.3-2.5.4.bin", POSModel::new));
        LemmatizerME lemmatizer = new LemmatizerME(MemoTest.<LemmatizerModel>load("opennlp-en-ud-ewt-lemmas-1.3-2.5.4.bin",
                LemmatizerModel::new));
        Memo memo = new Memo();
        for (int round = 0; round < 2; round++) {
            for (String sentence : SENTENCES) {
                Span[] expected = tokenizer.tokenizePos(sentence);
                Span[] actual = memo.tokenize(tokenizer, sentence);
                assertThat(actual).as("round %d: %s", round, sentence).containsExactly(expected);
                String[] words = Span.spansToStrings(expected, sentence);
                String[] tags = tagger.tag(words);
                for (int i = 0; i < words.length; i++) {
                    int from = Math.max(0, i - 1);
                    String[] l = lemmatizer.lemmatize(Arrays.copyOfRange(words, from, i + 1),
                            Arrays.copyOfRange(tags, from, i + 1));
                    String lemma = i == 0 ? memo.lemma(lemmatizer, null, null, words[i], tags[i])
                            : memo.lemma(lemmatizer, words[i - 1], tags[i - 1], words[i], tags[i]);
                    assertThat(lemma).as("%s in %s", words[i], sentence).isEqualTo(l[l.length - 1]);
                }
            }
        }
        // Tokens the model does split are among those remembered, so the test saw splitting, not only whole words.
        assertThat(Arrays.stream(SENTENCES).mapToInt(s -> tokenizer.tokenizePos(s).length).sum())
                .isGreaterThan(Arrays.stream(SENTENCES).mapToInt(s -> s.split("\\s+").length).sum());
    }

    private interface Reader<T> {
        T read(InputStream in) throws Exception;
    }

    private static <T> T load(String resource, Reader<T> reader) throws Exception {
        try (InputStream in = MemoTest.class.getClassLoader().getResourceAsStream(resource)) {
            return reader.read(in);
        }
    }
}
