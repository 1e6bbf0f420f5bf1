/** A renderer that embeds Tally: it may use only the packages Tally exports. */
module dev.tally.examples.embed {
    requires dev.tally;
    requires org.lwjgl.vma;
    requires jdk.management;   // the frame thread's allocated bytes, for the report
}
