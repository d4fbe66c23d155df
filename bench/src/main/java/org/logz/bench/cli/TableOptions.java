package org.logz.bench.cli;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import org.logz.io.AtomicFiles;

import picocli.CommandLine.Option;

/** Options of the benchmarks that print a table: the seed and an optional Markdown copy of the table. */
final class TableOptions {
    @Option(names = "--seed", defaultValue = "1", description = "Philox key of the first run. Default: ${DEFAULT-VALUE}.")
    long seed;

    @Option(names = "--markdown", paramLabel = "FILE", description = "Also write the table as Markdown.")
    Path markdown;

    /** Fails before any work when the Markdown file could not be written or would replace one of {@code inputs}. */
    void checkWritable(AtomicFiles.Named... inputs) {
        if (markdown != null) {
            AtomicFiles.requireDistinct(java.util.List.of(new AtomicFiles.Named("--markdown", markdown)), java.util.List.of(inputs));
            AtomicFiles.checkWritable(markdown);
        }
    }

    void write(String table) {
        if (markdown != null) {
            AtomicFiles.write(markdown, out -> out.write(table.getBytes(StandardCharsets.UTF_8)));
        }
    }
}
