/** RunConfig and the one function that turns it into the runtime's CallConfig. */
package dev.jpto.compiler.run;
