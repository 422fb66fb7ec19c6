package io.polyrag.core.config;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Renders {@code docs/configuration.md} from the declarations in {@link Settings}. */
public final class ConfigDocs {
    /** Key prefixes shown together under one heading. */
    private static final Map<String, String> GROUPS = Map.of("config", "general", "data", "general", "log", "general",
            "vector", "modalities and stores", "fulltext", "modalities and stores", "catalog", "modalities and stores",
            "fusion", "search", "dedup", "search");

    private ConfigDocs() {
    }

    public static String markdown() {
        StringBuilder sb = new StringBuilder();
        sb.append("# Configuration reference\n\n")
                .append("<!-- Generated from io.polyrag.core.config.Settings; do not edit by hand. -->\n\n")
                .append("Every setting can be given as an environment variable (`POLYRAG_…`), as a dotted key or ")
                .append("environment name in the properties file named by `POLYRAG_CONFIG_FILE`, or on the command ")
                .append("line with `--set key=value`. Precedence, highest first: command line, environment, file, ")
                .append("default. Values are validated at start-up; `polyrag config` prints the effective ")
                .append("configuration with secrets masked.\n");
        Map<String, List<Setting<?>>> groups = new LinkedHashMap<>();
        for (Setting<?> s : Settings.all()) {
            groups.computeIfAbsent(GROUPS.getOrDefault(s.group(), s.group()), g -> new ArrayList<>()).add(s);
        }
        groups.forEach((group, settings) -> {
            sb.append("\n## ").append(group).append("\n\n")
                    .append("| environment variable | key | type | default | range | description |\n")
                    .append("|---|---|---|---|---|---|\n");
            for (Setting<?> s : settings) {
                String def = s.defaultValue() == null ? "(unset)" : "`" + Setting.render(s.defaultValue()) + "`";
                sb.append("| `").append(s.env()).append("` | `").append(s.key()).append("` | ")
                        .append(s.typeName()).append(s.isSecret() ? ", secret" : "").append(" | ").append(def)
                        .append(" | ").append(s.range().replace("|", "\\|")).append(" | ")
                        .append(s.description().replace("|", "\\|")).append(" |\n");
            }
        });
        return sb.toString();
    }
}
