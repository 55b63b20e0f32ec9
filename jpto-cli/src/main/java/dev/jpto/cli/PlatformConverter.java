package dev.jpto.cli;

import dev.jpto.runtime.Platform;
import picocli.CommandLine;

/** {@code -p a5sim}; an unknown name is a usage error listing the platforms. */
final class PlatformConverter implements CommandLine.ITypeConverter<Platform> {
    @Override
    public Platform convert(String value) {
        try {
            return Platform.parse(value);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.TypeConversionException(e.getMessage());
        }
    }
}
