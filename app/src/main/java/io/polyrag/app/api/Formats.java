package io.polyrag.app.api;

import java.util.SortedSet;

/**
 * What this server accepts.
 *
 * @param mediaTypes media types the parser reads (detected from the content)
 * @param extensions file extensions a directory walk picks up
 * @param maxFileMb largest file accepted, in MiB
 * @param ocr whether images and scanned PDFs can be read
 */
public record Formats(SortedSet<String> mediaTypes, SortedSet<String> extensions, int maxFileMb, boolean ocr) {
}
