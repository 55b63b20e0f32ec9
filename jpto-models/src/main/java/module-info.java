/**
 * jpto's own programs ({@code basic.*}, {@code dsv4.*}, {@code l3.*}), registered as {@link
 * dev.jpto.lib.registry.ProgramProvider}s: the same public path a user's jar takes.
 */
module dev.jpto.models {
    requires transitive dev.jpto.lib;
    requires jdk.incubator.vector;

    // nothing exported: the programs are reached through ServiceLoader only, like a user's

    provides dev.jpto.lib.registry.ProgramProvider with dev.jpto.models.basic.BasicPrograms,
            dev.jpto.models.dsv4.kernels.Dsv4Family, dev.jpto.models.l3.L3Programs;
}
