package dev.tally.internal.graph;

/**
 * The queues a frame's passes may run on, as the planner sees them: lane 0 is the main queue (graphics,
 * compute, transfer), lane 1 an async compute queue. Which Vulkan queue serves a lane is the runtime's
 * business; the planner only needs to know whether there is a second lane and whether moving a resource
 * between lanes needs a queue-family ownership transfer (two families and EXCLUSIVE sharing) or not
 * (a second queue of the same family, or CONCURRENT sharing).
 *
 * @param lanes             1 or 2
 * @param transferOwnership lanes belong to different queue families and resources are EXCLUSIVE
 */
public record QueueLanes(int lanes, boolean transferOwnership) {
    public static final int MAIN = 0;
    public static final int ASYNC = 1;

    /** One queue: every pass on lane 0, one batch per frame. */
    public static final QueueLanes ONE = new QueueLanes(1, false);
    /** Two queues of one family (or CONCURRENT sharing): semaphores between lanes, no ownership transfers. */
    public static final QueueLanes SAME_FAMILY = new QueueLanes(2, false);
    /** Two queue families with EXCLUSIVE resources: semaphores plus release and acquire barriers. */
    public static final QueueLanes OTHER_FAMILY = new QueueLanes(2, true);

    public QueueLanes {
        if (lanes != 1 && lanes != 2) {
            throw new IllegalArgumentException("lanes: " + lanes + "; expected 1 or 2");
        }
        if (lanes == 1 && transferOwnership) {
            throw new IllegalArgumentException("one lane has nothing to transfer ownership to");
        }
    }
}
