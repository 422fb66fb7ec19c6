package io.polyrag.core.spi;

import io.polyrag.core.ConfigException;
import io.polyrag.core.config.Setting;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.ServiceLoader;
import java.util.TreeMap;

/**
 * Finds providers by name through {@link ServiceLoader}. An unknown name fails listing the names that exist, and two
 * providers claiming one name fail too: never a silent "first one on the classpath".
 */
public final class Providers {
    private Providers() {
    }

    /** The provider of type {@code type} named {@code name}; {@code setting} is named in the error. */
    public static <P extends NamedProvider> P find(Class<P> type, String name, Setting<String> setting) {
        TreeMap<String, List<P>> byName = available(type);
        String wanted = name == null ? "" : name.trim().toLowerCase(Locale.ROOT);
        List<P> matches = byName.get(wanted);
        if (matches == null) {
            throw new ConfigException(setting.env() + "='" + name + "' names no " + kind(type) + ": available are "
                    + (byName.isEmpty() ? "none (is the provider's module on the class path?)"
                            : String.join(", ", byName.keySet())));
        }
        if (matches.size() > 1) {
            throw new ConfigException(matches.size() + " " + kind(type) + "s claim the name '" + wanted + "': "
                    + matches.stream().map(p -> p.getClass().getName()).toList() + "; remove one from the class path");
        }
        return matches.getFirst();
    }

    /** Every provider of a type, by name. */
    public static <P extends NamedProvider> TreeMap<String, List<P>> available(Class<P> type) {
        TreeMap<String, List<P>> byName = new TreeMap<>();
        for (P p : ServiceLoader.load(type, Providers.class.getClassLoader())) {
            byName.computeIfAbsent(p.name().toLowerCase(Locale.ROOT), k -> new ArrayList<>()).add(p);
        }
        return byName;
    }

    private static String kind(Class<?> type) {
        String simple = type.getSimpleName().replace("Provider", "");
        return simple.replaceAll("([a-z])([A-Z])", "$1 $2").toLowerCase(Locale.ROOT) + " provider";
    }
}
