/** The tasks suite (support/tasks-suite.ts) against one Redis: REDIS_URL (see support/redis-env.ts). */
import { describeWithRedis, REDIS_URL, redisUnavailable } from './support/redis-env';
import { tasksAcrossInstances } from './support/tasks-suite';

describeWithRedis('tasks on Redis', redisUnavailable(), () => tasksAcrossInstances(() => REDIS_URL, 'Redis'));
