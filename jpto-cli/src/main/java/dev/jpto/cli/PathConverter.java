package dev.jpto.cli;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import picocli.CommandLine;

/**
 * Every path option and parameter: an empty or blank value is refused ({@code Path.of("")} is the current directory,
 * so {@code -o ''} would write a work dir into wherever jpto was started); picocli's message names the option.
 */
final class PathConverter implements CommandLine.ITypeConverter<Path> {
    @Override
    public Path convert(String value) {
        if (value.isBlank()) {
            throw new CommandLine.TypeConversionException("the path is empty ('" + value + "'), which would mean the "
                    + "current directory; give a directory, e.g. ./out");
        }
        try {
            return Path.of(value);
        } catch (InvalidPathException e) {
            throw new CommandLine.TypeConversionException("'" + value + "' is not a valid path: " + e.getReason());
        }
    }
}
