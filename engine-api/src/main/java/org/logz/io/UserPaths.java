package org.logz.io;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;

import org.logz.base.UserException;

/** File names as users give them: a name the file system cannot hold is a one-line error, not an exception trace. */
public final class UserPaths {
    private UserPaths() {
    }

    /** The path {@code name} denotes, or a {@link UserException} saying why it is none. */
    public static Path of(String name) {
        try {
            return Path.of(name);
        } catch (InvalidPathException e) {
            throw new UserException("'" + name.replace("\0", "\\0") + "' is not a file name here: " + e.getReason());
        }
    }
}
