package io.polyrag.core.spi;

/** A provider chosen by name in the configuration and found through {@link java.util.ServiceLoader}. */
public interface NamedProvider {

    /** The name the configuration uses to pick this provider, lower-case. */
    String name();

    /** One line for listings: what backs it. */
    String description();
}
