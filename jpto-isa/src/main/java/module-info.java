/** The tile ISA: data types, tensors and tiles over memory segments, the tile op set and its engines. */
module dev.jpto.isa {
    requires jdk.incubator.vector;

    exports dev.jpto.isa;
    exports dev.jpto.isa.op;
    exports dev.jpto.isa.kernel;
    exports dev.jpto.isa.engine; // KernelExecutor takes one: a kernel's unit test runs it on tiles directly
}
