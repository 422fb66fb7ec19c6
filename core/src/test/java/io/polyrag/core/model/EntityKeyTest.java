package io.polyrag.core.model;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class EntityKeyTest {
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "Sherlock Holmes|sherlock holmes",
        "Mr. Sherlock Holmes's|sherlock holmes",
        "  Dr  Watson |watson",
        "The Radium Institute|radium institute",
        "ＡＣＭＥ Corp.|acme corp",
        "Holmes’s|holmes",
        "Mr.|mr",
        "C++|c",
        "...|''",
    })
    void normalises_names(String name, String key) {
        assertThat(Entity.key(name)).isEqualTo(key);
    }
}
