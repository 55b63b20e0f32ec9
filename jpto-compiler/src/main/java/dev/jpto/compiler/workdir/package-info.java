/** The work-dir formats: manifest descriptor and orchestration JSON codec (internal). */
package dev.jpto.compiler.workdir;
