import { PubSub } from 'graphql-subscriptions';
import { RedisPubSub } from 'graphql-redis-subscriptions';
import Redis from 'ioredis';

// In-process and GraphQL pub/sub objects are not the broker client, even next to a Redis import.
const pubsub = new PubSub();
const redisPubSub = new RedisPubSub({ publisher: new Redis(), subscriber: new Redis() });

export const resolvers = {
  Mutation: {
    addPost: (_: unknown, post: unknown) => {
      pubsub.publish('POST_ADDED', { postAdded: post });
      void redisPubSub.publish('POST_ADDED', { postAdded: post });
      return post;
    },
  },
  Subscription: {
    postAdded: { subscribe: () => pubsub.asyncIterator(['POST_ADDED']) },
  },
};
