/** The {@code l3.*} programs: L3 (host-level) orchestrations of chip programs over several chips. */
package dev.jpto.models.l3;
