package dev.jpto.cli;

import java.util.Map;
import java.util.Stack;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Collects {@code --runtime-cfg KEY=VALUE} entries into the option's map. A key given again with the same value is
 * accepted; with a different value it is refused (picocli's own map handling silently keeps the last one, so a
 * typo in a long command line would go unnoticed).
 */
final class RuntimeCfgEntries implements CommandLine.IParameterConsumer {
    @Override
    public void consumeParameters(Stack<String> args, ArgSpec argSpec, CommandSpec commandSpec) {
        String option = ((OptionSpec) argSpec).longestName();
        if (args.isEmpty()) {
            throw new CommandLine.ParameterException(commandSpec.commandLine(), "Missing required parameter for "
                    + "option '" + option + "' (" + argSpec.paramLabel() + ")", argSpec, null);
        }
        String entry = args.pop();
        int eq = entry.indexOf('=');
        if (eq <= 0) {
            // picocli's own wording for a map entry without '=', which users and tests already know
            throw new CommandLine.ParameterException(commandSpec.commandLine(), "Value for option '" + option + "' ("
                    + argSpec.paramLabel() + ") should be in KEY=VALUE format but was " + entry, argSpec, entry);
        }
        String key = entry.substring(0, eq);
        String value = entry.substring(eq + 1);
        Map<String, String> map = argSpec.getValue();
        String earlier = map.putIfAbsent(key, value);
        if (earlier != null && !earlier.equals(value)) {
            throw new CommandLine.ParameterException(commandSpec.commandLine(), option + " " + key + " is given twice "
                    + "with different values: " + key + "=" + earlier + " and " + key + "=" + value
                    + " (give it once)", argSpec, entry);
        }
    }
}
