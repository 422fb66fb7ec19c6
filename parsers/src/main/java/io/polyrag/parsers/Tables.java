package io.polyrag.parsers;

import java.util.List;

/**
 * A table's rows as the text of a table block: one row a line, cells joined by {@code " | "}, every row as wide as
 * the widest. Columns empty in every row and rows empty in every column are left out: a spreadsheet's used range
 * reaching column XFD, or a CSV export padded with separators, padded every row to thousands of empty cells, each
 * chunk of the table then a line of bars.
 */
final class Tables {
    private Tables() {
    }

    /** How many columns hold a cell with text in some row. */
    static int usedColumns(List<List<String>> rows) {
        return count(used(rows));
    }

    private static int count(boolean[] used) {
        int kept = 0;
        for (boolean u : used) {
            kept += u ? 1 : 0;
        }
        return kept;
    }

    /**
     * The length of {@link #text}, counted without building it: rows shorter than the widest are padded with empty
     * cells, each with its separator, so a header of 50,000 cells over 100,000 one-cell lines is 15 billion
     * characters from a file of a megabyte.
     */
    static long length(List<List<String>> rows) {
        boolean[] used = used(rows);
        int kept = count(used);
        long n = 0;
        for (List<String> r : rows) {
            if (r.stream().allMatch(String::isEmpty)) {
                continue;
            }
            n += 1 + 3L * Math.max(0, kept - 1);
            for (int i = 0; i < r.size() && i < used.length; i++) {
                n += used[i] ? r.get(i).length() : 0;
            }
        }
        return n;
    }

    static String text(List<List<String>> rows) {
        boolean[] used = used(rows);
        StringBuilder t = new StringBuilder();
        for (List<String> r : rows) {
            if (r.stream().allMatch(String::isEmpty)) {
                continue;
            }
            if (!t.isEmpty()) {
                t.append('\n');
            }
            boolean first = true;
            for (int i = 0; i < used.length; i++) {
                if (used[i]) {
                    if (!first) {
                        t.append(" | ");
                    }
                    first = false;
                    t.append(i < r.size() ? r.get(i) : "");
                }
            }
        }
        return t.toString();
    }

    private static boolean[] used(List<List<String>> rows) {
        int width = rows.stream().mapToInt(List::size).max().orElse(0);
        boolean[] used = new boolean[width];
        for (List<String> r : rows) {
            for (int i = 0; i < r.size(); i++) {
                used[i] |= !r.get(i).isEmpty();
            }
        }
        return used;
    }
}
