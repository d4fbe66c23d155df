package org.logz.readme;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The commands the README prints, as a user copies them: the lines of its code blocks that start with {@code logz},
 * {@code ./logz} or {@code java} (after an optional {@code $ } prompt, up to a {@code #} comment), with the output the
 * block shows under a prompted one, and the code spans in its text that start with one of those (a span may wrap).
 */
final class Readme {
    private static final Pattern SPAN = Pattern.compile("`([^`]+)`");
    private static final Pattern PROGRAM = Pattern.compile("^(?:\\./)?logz(?:\\s|$)|^java\\s");

    private Readme() {
    }

    /**
     * One command: where it stands, its words as the shell would split them, whether it stands in a code block (a
     * command to paste) or in the prose (a mention), and the output the README shows under it.
     */
    record Command(int line, String text, List<String> words, boolean block, List<String> shown) {
        @Override
        public String toString() {
            return "README:" + line + " " + text;
        }
    }

    static List<Command> commands(Path readme) throws IOException {
        List<String> lines = Files.readAllLines(readme);
        List<Command> commands = new ArrayList<>();
        StringBuilder prose = new StringBuilder();
        List<int[]> proseLines = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            if (!lines.get(i).startsWith("```")) {
                proseLines.add(new int[] {prose.length(), i + 1});
                prose.append(lines.get(i)).append(' ');
                continue;
            }
            int end = i + 1;
            while (end < lines.size() && !lines.get(end).startsWith("```")) {
                end++;
            }
            block(lines, i + 1, end, commands);
            i = end;
        }
        Matcher m = SPAN.matcher(prose);
        while (m.find()) {
            String text = m.group(1).strip();
            if (PROGRAM.matcher(text).find()) {
                commands.add(new Command(lineOf(m.start(), proseLines), text, words(text.replace("\\|", "|")), false,
                        List.of()));
            }
        }
        commands.sort((a, b) -> Integer.compare(a.line(), b.line()));
        return commands;
    }

    /** The commands of the code block in lines [from, to), each with the lines it shows up to the next prompt. */
    private static void block(List<String> lines, int from, int to, List<Command> commands) {
        for (int i = from; i < to; i++) {
            String line = lines.get(i);
            boolean prompted = line.startsWith("$ ");
            String text = withoutComment(prompted ? line.substring(2) : line).strip();
            if (!PROGRAM.matcher(text).find()) {
                continue;
            }
            List<String> shown = new ArrayList<>();
            int j = i + 1;
            while (prompted && j < to && !lines.get(j).startsWith("$ ") && !lines.get(j).isBlank()) {
                shown.add(lines.get(j++));
            }
            commands.add(new Command(i + 1, text, words(text), true, shown));
            i = j - 1;
        }
    }

    /** The README line (1-based) where the prose offset {@code offset} stands: proseLines holds each start. */
    private static int lineOf(int offset, List<int[]> proseLines) {
        int line = 0;
        for (int[] start : proseLines) {
            if (start[0] > offset) {
                break;
            }
            line = start[1];
        }
        return line;
    }

    private static String withoutComment(String line) {
        char quote = 0;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quote != 0) {
                quote = c == quote ? 0 : quote;
            } else if (c == '"' || c == '\'') {
                quote = c;
            } else if (c == '#' && (i == 0 || Character.isWhitespace(line.charAt(i - 1)))) {
                return line.substring(0, i);
            }
        }
        return line;
    }

    /** The words the shell would make of {@code text}: split at blanks outside quotes, the quotes removed. */
    static List<String> words(String text) {
        List<String> words = new ArrayList<>();
        StringBuilder word = null;
        char quote = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                } else {
                    word.append(c);
                }
            } else if (Character.isWhitespace(c)) {
                if (word != null) {
                    words.add(word.toString());
                    word = null;
                }
            } else {
                word = word == null ? new StringBuilder() : word;
                if (c == '"' || c == '\'') {
                    quote = c;
                } else {
                    word.append(c);
                }
            }
        }
        if (word != null) {
            words.add(word.toString());
        }
        return words;
    }
}
